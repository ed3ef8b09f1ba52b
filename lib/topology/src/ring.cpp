// See ring.hpp.
#include "distkit/topology/ring.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <set>
#include <unordered_set>
#include <utility>

namespace distkit::topology {

namespace {

using Mask = std::uint64_t;

struct StateHash {
  size_t operator()(const std::pair<Mask, int>& s) const {
    return std::hash<Mask>()(s.first * 0x9E3779B97F4A7C15ull + Mask(s.second));
  }
};

// Memory bound for the dead-state memo (about 100 MB at most).
constexpr size_t kMaxDeadStates = size_t(1) << 22;
// Search steps per width before giving up (about a second per width at
// worst on this machine; rings and meshes need a few hundred).
constexpr long kSearchBudget = 1000000;

struct Search {
  int n = 0;
  std::vector<Mask> adj;  // neighbours with enough cables
  std::vector<int> path;
  // (end of path, unvisited hosts) states already shown to lead nowhere.
  std::unordered_set<std::pair<Mask, int>, StateHash> dead;

  static Mask bit(int v) { return Mask(1) << v; }
  static int lowest(Mask m) { return std::countr_zero(m); }

  // Every unvisited host must keep two usable neighbours, and all of them
  // must be reachable from `cur` through unvisited hosts, with a way back
  // to host 0.
  bool feasible(int cur, Mask unvisited) const {
    Mask open = unvisited | bit(cur) | bit(0);
    for (Mask m = unvisited; m; m &= m - 1)
      if (std::popcount(adj[size_t(lowest(m))] & open) < 2) return false;
    Mask seen = bit(cur), frontier = bit(cur);
    while (frontier) {
      Mask next = 0;
      for (Mask m = frontier; m; m &= m - 1) next |= adj[size_t(lowest(m))];
      next &= unvisited & ~seen;
      seen |= next;
      frontier = next;
    }
    return (seen & unvisited) == unvisited && (adj[0] & unvisited) && biconnected(cur, unvisited);
  }

  // The rest of the ring must be a Hamiltonian path from cur back to 0
  // through the unvisited hosts: with the path so far standing in as an
  // edge cur-0, that graph must have no articulation point (Tarjan).
  bool biconnected(int cur, Mask unvisited) const {
    Mask nodes = unvisited | bit(cur) | bit(0);
    if (std::popcount(nodes) < 3) return true;
    std::vector<int> disc(size_t(n), -1), low(size_t(n), 0);
    int time = 0;
    bool cut = false;
    auto neighbours = [&](int v) {
      Mask m = adj[size_t(v)] & nodes;
      if (v == cur) m |= bit(0);
      if (v == 0) m |= bit(cur);
      return m;
    };
    auto visit = [&](auto&& self, int v, int parent) -> void {
      disc[size_t(v)] = low[size_t(v)] = time++;
      int children = 0;
      for (Mask m = neighbours(v); m && !cut; m &= m - 1) {
        int w = lowest(m);
        if (disc[size_t(w)] < 0) {
          ++children;
          self(self, w, v);
          low[size_t(v)] = std::min(low[size_t(v)], low[size_t(w)]);
          if (parent >= 0 && low[size_t(w)] >= disc[size_t(v)]) cut = true;
        } else if (w != parent) {
          low[size_t(v)] = std::min(low[size_t(v)], disc[size_t(w)]);
        }
      }
      if (parent < 0 && children > 1) cut = true;
    };
    visit(visit, 0, -1);
    return !cut;
  }

  // The next host when one is forced: an unvisited neighbour of `cur` with
  // exactly two usable neighbours must follow cur (cur is one of its two
  // ring neighbours). -1: none forced; -2: two forced (dead end).
  int forced_next(int cur, Mask unvisited) const {
    if (cur == 0) return -1;
    Mask open = unvisited | bit(cur) | bit(0);
    int forced = -1;
    for (Mask m = adj[size_t(cur)] & unvisited; m; m &= m - 1) {
      int v = lowest(m);
      if (std::popcount(adj[size_t(v)] & open) != 2) continue;
      if (forced >= 0) return -2;
      forced = v;
    }
    return forced;
  }

  long budget = 0;  // dfs calls left; < 0: gave up

  bool dfs(int cur, Mask unvisited) {
    if (!unvisited) return adj[size_t(cur)] & bit(0);
    if (--budget < 0) return false;
    if (dead.count({unvisited, cur})) return false;
    int forced = feasible(cur, unvisited) ? forced_next(cur, unvisited) : -2;
    Mask choices = forced == -1  ? adj[size_t(cur)] & unvisited
                   : forced >= 0 ? bit(forced)
                                 : Mask(0);
    for (Mask m = choices; m; m &= m - 1) {
      int v = lowest(m);
      path.push_back(v);
      if (dfs(v, unvisited & ~bit(v))) return true;
      path.pop_back();
    }
    if (budget >= 0 && dead.size() < kMaxDeadStates) dead.insert({unvisited, cur});
    return false;
  }
};

int ring_width(const CountMatrix& c, const std::vector<int>& order) {
  int w = 1 << 30;
  for (size_t i = 0; i < order.size(); ++i)
    w = std::min(w, c[size_t(order[i])][size_t(order[(i + 1) % order.size()])]);
  return w;
}

bool valid(const CountMatrix& c) {
  return std::all_of(c.begin(), c.end(), [&](const auto& row) { return row.size() == c.size(); });
}

}  // namespace

std::optional<Ring> find_ring(const CountMatrix& count, RingSearchStats* stats) {
  RingSearchStats local;
  RingSearchStats& st = stats ? *stats : local;
  st.gave_up = false;
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
    s.budget = st.budget_left > 0 ? st.budget_left : kSearchBudget;
    Mask all = n == 64 ? ~Mask(0) : (Search::bit(n) - 1);
    bool ok = s.dfs(0, all & ~Search::bit(0));
    if (s.budget < 0) {
      st.gave_up = true;
      return std::nullopt;
    }
    if (ok) return Ring{s.path, ring_width(count, s.path)};
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

  void record() {
    if (path.size() < 2) return;
    std::vector<int> key = path;
    std::sort(key.begin(), key.end());
    if (!seen.insert(key).second) return;
    found.push_back({path, ring_width(c, path)});
  }

  // Cycles whose smallest host is `start`: only hosts > start are visited.
  void dfs(int start, int cur) {
    if (--budget < 0) return;
    for (int j = 0; j < n; ++j) {
      if (c[size_t(cur)][size_t(j)] <= 0) continue;
      if (j == start) record();
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

}  // namespace distkit::topology
