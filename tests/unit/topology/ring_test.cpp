// Ring search: exact (checked against the exhaustive search), widest ring
// first, MLX's ring among equals, partial rings when there is none.
#include "distkit/topology/ring.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <vector>

#include "catch.hpp"

using namespace distkit::topology;

namespace {

// The naive exhaustive search (every Hamiltonian cycle from host 0, like
// MLX's extract_rings), keeping the first of the greatest width: the
// reference find_ring is checked against. Exponential: small inputs only.
std::optional<Ring> find_ring_naive(const CountMatrix& count) {
  const int n = int(count.size());
  if (n < 2) return std::nullopt;
  std::optional<Ring> best;
  std::vector<int> path{0};
  std::vector<bool> used(size_t(n), false);
  used[0] = true;
  auto rec = [&](auto&& self, int cur) -> void {
    if (int(path.size()) == n) {
      if (count[size_t(cur)][0] <= 0) return;
      int w = count[size_t(cur)][0];
      for (size_t i = 0; i + 1 < path.size(); ++i)
        w = std::min(w, count[size_t(path[i])][size_t(path[i + 1])]);
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

CountMatrix cycle(int n, int width = 1) {
  CountMatrix c(size_t(n), std::vector<int>(size_t(n), 0));
  for (int i = 0; i < n; ++i) {
    int j = (i + 1) % n;
    c[size_t(i)][size_t(j)] = c[size_t(j)][size_t(i)] = width;
  }
  return c;
}
void link(CountMatrix& c, int i, int j, int k = 1) {
  c[size_t(i)][size_t(j)] = c[size_t(j)][size_t(i)] = k;
}
}  // namespace

TEST_CASE("a 4-host ring is found in MLX's order") {
  auto r = find_ring(cycle(4));
  REQUIRE(r);
  CHECK(r->order == std::vector<int>{0, 1, 2, 3});
  CHECK(r->width == 1);
}

TEST_CASE("two hosts with two cables form a ring of width 2; one host is no ring") {
  CountMatrix c{{0, 2}, {2, 0}};
  auto r = find_ring(c);
  REQUIRE(r);
  CHECK(r->width == 2);
  CHECK_FALSE(find_ring(CountMatrix{{0}}));
}

TEST_CASE("ring search rejects a chain with a missing cable") {
  CountMatrix c{{0, 1, 0}, {1, 0, 1}, {0, 1, 0}};
  CHECK_FALSE(find_ring(c));
  auto partial = longest_partial_rings(c);
  REQUIRE(partial.size() == 2);
  CHECK(partial[0].order == std::vector<int>{0, 1});
  CHECK(partial[1].order == std::vector<int>{1, 2});
}

TEST_CASE("the ring with the most parallel cables wins over the first ring") {
  // 0-1-2-3-0 single cables, and 0-2-1-3-0 with double cables.
  CountMatrix c = cycle(4);
  link(c, 0, 2, 2);
  link(c, 2, 1, 2);
  link(c, 1, 3, 2);
  link(c, 3, 0, 2);
  auto r = find_ring(c);
  REQUIRE(r);
  CHECK(r->width == 2);
  CHECK(r->order == std::vector<int>{0, 2, 1, 3});
}

TEST_CASE("ring search agrees with the exhaustive search on random graphs") {
  std::mt19937 rng(42);
  for (int round = 0; round < 300; ++round) {
    int n = 3 + int(rng() % 6);
    CountMatrix c(size_t(n), std::vector<int>(size_t(n), 0));
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (rng() % 100 < 45) link(c, i, j, 1 + int(rng() % 3));
    auto fast = find_ring(c);
    auto naive = find_ring_naive(c);
    REQUIRE(fast.has_value() == naive.has_value());
    if (fast) {
      CHECK(fast->width == naive->width);
      CHECK(fast->order == naive->order);
    }
  }
}

TEST_CASE("64 hosts in a ring with chords are answered well under a second") {
  CountMatrix c = cycle(64);
  for (int i = 0; i < 64; i += 3) link(c, i, (i + 7) % 64);
  auto t0 = std::chrono::steady_clock::now();
  auto r = find_ring(c);
  auto dt = std::chrono::steady_clock::now() - t0;
  REQUIRE(r);
  CHECK(r->order.size() == 64);
  CHECK(dt < std::chrono::milliseconds(500));
}

TEST_CASE("malformed matrices give no ring instead of a crash") {
  CHECK_FALSE(find_ring(CountMatrix{{0, 1}, {1}}));
  CHECK(longest_partial_rings(CountMatrix{{0, 1}, {1}}).empty());
}

TEST_CASE("a search that runs out of steps says it gave up instead of claiming no ring") {
  RingSearchStats stats;
  stats.budget_left = 2;
  CHECK_FALSE(find_ring(cycle(6), &stats));
  CHECK(stats.gave_up);
  RingSearchStats normal;
  CHECK(find_ring(cycle(6), &normal));
  CHECK_FALSE(normal.gave_up);
}
