// bench/topology_ring: how long the exact ring search takes, against the
// naive peer measured in the same run: enumerating every simple cycle from
// every start host, as MLX's extract_rings does. Prints one row per graph;
// the naive search gets a time budget and is reported as ">budget" beyond
// it (the ratio is then a lower bound). Exit status 1 when the two disagree
// or when the exact search misses its target (64 hosts < 1 s).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "distkit/topology/ring.hpp"

using distkit::topology::CountMatrix;
using Clock = std::chrono::steady_clock;

namespace {

CountMatrix empty(int n) {
  return CountMatrix(size_t(n), std::vector<int>(size_t(n), 0));
}
void link(CountMatrix& c, int i, int j, int k = 1) {
  if (i != j) c[size_t(i)][size_t(j)] = c[size_t(j)][size_t(i)] = k;
}

// A ring with chords to the host n/2 away (like Macs with spare ports).
CountMatrix ring_chords(int n) {
  auto c = empty(n);
  for (int i = 0; i < n; ++i) link(c, i, (i + 1) % n);
  for (int i = 0; i < n / 2; i += 2) link(c, i, i + n / 2);
  return c;
}

// Random cabling with at most 4 cables per host, 1-2 cables per pair.
CountMatrix random_cabling(int n, unsigned seed) {
  std::mt19937 rng(seed);
  auto c = empty(n);
  std::vector<int> used(size_t(n), 0);
  for (int tries = 0; tries < n * 8; ++tries) {
    int i = int(rng() % unsigned(n)), j = int(rng() % unsigned(n));
    if (i == j || c[size_t(i)][size_t(j)] || used[size_t(i)] >= 4 || used[size_t(j)] >= 4) continue;
    link(c, i, j, 1 + int(rng() % 2));
    ++used[size_t(i)];
    ++used[size_t(j)];
  }
  return c;
}

// Two rings joined by one cable: no ring through everyone.
CountMatrix two_rings(int n) {
  auto c = empty(n);
  int h = n / 2;
  for (int i = 0; i < h; ++i) link(c, i, (i + 1) % h);
  for (int i = h; i < n; ++i) link(c, i, i + 1 < n ? i + 1 : h);
  link(c, 0, h);
  return c;
}

// The peer: every simple cycle from every start (MLX's extract_rings), the
// longest first; a ring through all hosts with the most cables wins.
struct Naive {
  const CountMatrix& c;
  Clock::time_point deadline;
  bool timed_out = false;
  int best_width = 0;
  std::vector<int> path;
  std::vector<bool> on;
  long steps = 0;

  void dfs(int start, int node) {
    if ((++steps & 1023) == 0 && Clock::now() > deadline) timed_out = true;
    if (timed_out) return;
    int n = int(c.size());
    for (int j = 0; j < n; ++j) {
      if (c[size_t(node)][size_t(j)] <= 0) continue;
      if (j == start && int(path.size()) == n) {
        int w = 1 << 30;
        for (size_t k = 0; k < path.size(); ++k)
          w = std::min(w, c[size_t(path[k])][size_t(path[(k + 1) % path.size()])]);
        best_width = std::max(best_width, w);
      }
      if (!on[size_t(j)]) {
        on[size_t(j)] = true;
        path.push_back(j);
        dfs(start, j);
        path.pop_back();
        on[size_t(j)] = false;
      }
    }
  }
};

std::optional<int> naive_width(const CountMatrix& c, double budget_ms, bool& timed_out) {
  Naive s{c, Clock::now() + std::chrono::microseconds(long(budget_ms * 1000)), false, 0, {}, {}, 0};
  s.on.assign(c.size(), false);
  for (int start = 0; start < int(c.size()) && !s.timed_out; ++start) {
    s.path = {start};
    s.on[size_t(start)] = true;
    s.dfs(start, start);
    s.on[size_t(start)] = false;
  }
  timed_out = s.timed_out;
  if (s.best_width == 0) return std::nullopt;
  return s.best_width;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main() {
  const double budget_ms = 2000;
  struct Case {
    std::string name;
    CountMatrix c;
  };
  std::vector<Case> cases;
  for (int n : {8, 10, 12, 16, 32, 64}) cases.push_back({"ring+chords", ring_chords(n)});
  for (int n : {8, 12, 16, 64}) cases.push_back({"random<=4", random_cabling(n, unsigned(n))});
  for (int n : {8, 12, 64}) cases.push_back({"two-rings", two_rings(n)});

  std::printf("# topology_ring: exact widest-ring search (find_ring) vs naive cycle enumeration\n");
  std::printf("# (MLX extract_rings), same run; naive budget %.0f ms per graph\n", budget_ms);
  std::printf("#%6s  %-12s %6s %6s %12s %12s %10s\n", "hosts", "graph", "ring", "width", "exact_ms",
              "naive_ms", "speedup");
  int bad = 0;
  for (const auto& cs : cases) {
    const int n = int(cs.c.size());
    const int reps = 5;
    std::vector<double> times;
    std::optional<distkit::topology::Ring> r;
    for (int i = 0; i < reps; ++i) {
      auto t0 = Clock::now();
      r = distkit::topology::find_ring(cs.c);
      times.push_back(ms_since(t0));
    }
    std::sort(times.begin(), times.end());
    double exact = times[times.size() / 2];
    bool timed_out = false;
    auto t0 = Clock::now();
    auto nw = naive_width(cs.c, budget_ms, timed_out);
    double naive = ms_since(t0);
    std::string naive_s = timed_out ? ">" + std::to_string(int(budget_ms)) : std::to_string(naive);
    char speed[32];
    std::snprintf(speed, sizeof speed, "%s%.0fx", timed_out ? ">" : "",
                  naive / std::max(exact, 1e-6));
    std::printf(" %6d  %-12s %6s %6d %12.4f %12s %10s\n", n, cs.name.c_str(), r ? "yes" : "no",
                r ? r->width : 0, exact, naive_s.substr(0, 10).c_str(), speed);
    if (!timed_out && (r.has_value() != nw.has_value() || (r && r->width != *nw))) {
      std::printf("# WRONG: exact and naive disagree for %d hosts (%s)\n", n, cs.name.c_str());
      ++bad;
    }
    if (n == 64 && exact > 1000) {
      std::printf("# SLOW: %d hosts took %.1f ms (target < 1000 ms)\n", n, exact);
      ++bad;
    }
  }
  return bad ? 1 : 0;
}
