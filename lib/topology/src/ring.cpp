// See ring.hpp.
#include "distkit/topology/ring.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <set>

namespace distkit::topology {

namespace {

using Mask = std::uint64_t;

struct Search {
  int n = 0;
  std::vector<Mask> adj;  // neighbours with enough cables
  std::vector<int> path;
  bool found = false;

  static Mask bit(int v) { return Mask(1) << v; }

  // Every unvisited host must keep two usable neighbours, and all of them
  // must be reachable from `cur` through unvisited hosts, with a way back
  // to host 0.
  bool feasible(int cur, Mask unvisited) const {
    if (!unvisited) return adj[size_t(cur)] & bit(0);
    Mask open = unvisited | bit(cur) | bit(0);
    for (Mask m = unvisited; m; m &= m - 1) {
      int v = std::countr_zero(m);
      if (std::popcount(adj[size_t(v)] & open) < 2) return false;
    }
    Mask seen = bit(cur), frontier = bit(cur);
    while (frontier) {
      Mask next = 0;
      for (Mask m = frontier; m; m &= m - 1) next |= adj[size_t(std::countr_zero(m))];
      next &= unvisited & ~seen;
      seen |= next;
      frontier = next;
    }
    if ((seen & unvisited) != unvisited) return false;
    return adj[0] & unvisited;
  }

  void dfs(int cur, Mask unvisited) {
    if (!unvisited) {
      found = adj[size_t(cur)] & bit(0);
      return;
    }
    if (!feasible(cur, unvisited)) return;
    for (Mask m = adj[size_t(cur)] & unvisited; m && !found; m &= m - 1) {
      int v = std::countr_zero(m);
      path.push_back(v);
      dfs(v, unvisited & ~bit(v));
      if (!found) path.pop_back();
    }
  }
};

int ring_width(const CountMatrix& c, const std::vector<int>& order) {
  int w = 1 << 30;
  for (size_t i = 0; i < order.size(); ++i)
    w = std::min(w, c[size_t(order[i])][size_t(order[(i + 1) % order.size()])]);
  return w;
}

bool valid(const CountMatrix& c) {
  for (const auto& row : c)
    if (row.size() != c.size()) return false;
  return true;
}

}  // namespace

std::optional<Ring> find_ring(const CountMatrix& count) {
  const int n = int(count.size());
  if (n < 2 || n > 64 || !valid(count)) return std::nullopt;
  if (n == 2) {
    if (count[0][1] <= 0) return std::nullopt;
    return Ring{{0, 1}, count[0][1]};
  }
  int max_w = 0;
  for (const auto& row : count)
    for (int c : row) max_w = std::max(max_w, c);
  for (int w = max_w; w >= 1; --w) {
    Search s;
    s.n = n;
    s.adj.assign(size_t(n), 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (i != j && count[size_t(i)][size_t(j)] >= w) s.adj[size_t(i)] |= Search::bit(j);
    s.path = {0};
    Mask all = n == 64 ? ~Mask(0) : (Search::bit(n) - 1);
    s.dfs(0, all & ~Search::bit(0));
    if (s.found) return Ring{s.path, ring_width(count, s.path)};
  }
  return std::nullopt;
}

namespace {

struct CycleEnum {
  const CountMatrix& c;
  int n;
  long budget;
  std::vector<int> path;
  std::vector<bool> on_path;
  std::vector<Ring> found;
  std::set<std::vector<int>> seen;

  void record(int start) {
    if (path.size() < 2) return;
    std::vector<int> key = path;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) return;
    found.push_back({path, ring_width(c, path)});
    (void)start;
  }

  // Cycles whose smallest host is `start`: only hosts > start are visited.
  void dfs(int start, int cur) {
    if (--budget < 0) return;
    for (int j = 0; j < n; ++j) {
      if (c[size_t(cur)][size_t(j)] <= 0) continue;
      if (j == start) record(start);
      if (j > start && !on_path[size_t(j)]) {
        path.push_back(j);
        on_path[size_t(j)] = true;
        dfs(start, j);
        on_path[size_t(j)] = false;
        path.pop_back();
      }
    }
  }
};

}  // namespace

std::vector<Ring> longest_partial_rings(const CountMatrix& count, size_t limit, long budget) {
  if (!valid(count)) return {};
  CycleEnum e{count, int(count.size()), budget, {}, {}, {}, {}};
  e.on_path.assign(count.size(), false);
  for (int s = 0; s < e.n && e.budget > 0; ++s) {
    e.path = {s};
    e.on_path[size_t(s)] = true;
    e.dfs(s, s);
    e.on_path[size_t(s)] = false;
  }
  std::stable_sort(e.found.begin(), e.found.end(),
                   [](const Ring& a, const Ring& b) { return a.order.size() > b.order.size(); });
  std::vector<Ring> out;
  for (auto& r : e.found) {
    if (out.size() >= limit || (!out.empty() && r.order.size() < out[0].order.size())) break;
    out.push_back(r);
  }
  return out;
}

std::optional<Ring> find_ring_naive(const CountMatrix& count) {
  const int n = int(count.size());
  if (n < 2 || !valid(count)) return std::nullopt;
  std::optional<Ring> best;
  std::vector<int> path{0};
  std::vector<bool> used(size_t(n), false);
  used[0] = true;
  // Every Hamiltonian path from 0 in DFS order; keep the first of the
  // greatest width.
  auto rec = [&](auto&& self, int cur) -> void {
    if (int(path.size()) == n) {
      if (count[size_t(cur)][0] <= 0) return;
      int w = ring_width(count, path);
      if (!best || w > best->width) best = Ring{path, w};
      return;
    }
    for (int j = 0; j < n; ++j) {
      if (used[size_t(j)] || count[size_t(cur)][size_t(j)] <= 0) continue;
      used[size_t(j)] = true;
      path.push_back(j);
      self(self, j);
      path.pop_back();
      used[size_t(j)] = false;
    }
  };
  rec(rec, 0);
  return best;
}

}  // namespace distkit::topology
