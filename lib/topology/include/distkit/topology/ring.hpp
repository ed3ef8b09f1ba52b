// Ring search over the cable-count matrix: a Hamiltonian cycle through all
// hosts that uses the most parallel cables, found exactly.
//
// "Most parallel cables" means the largest width w such that every ring edge
// has at least w cables (a ring runs one connection per cable, so its width
// is set by its thinnest edge). Among rings of that width the first in
// depth-first order from host 0 is returned (neighbours tried in index
// order), which is the ring MLX's reference tool picks, so hostfiles match.
//
// Exact branch and bound on 64-bit masks. A branch ends when an unvisited
// host has fewer than two usable neighbours, when the unvisited hosts are
// cut off from the path or the rest has an articulation point, or when it
// repeats a state already known to be dead; a host with only two usable
// neighbours forces the next step. Rings, rings with chords and meshes of
// 64 hosts take well under a millisecond (bench/topology_ring). Hamiltonian
// cycle is NP-complete: on irregular sparse cablings the search can blow
// up, so it stops after a step budget and says so (gave_up) rather than
// hang or claim there is no ring.
#pragma once

#include <optional>
#include <vector>

namespace distkit::topology {

using CountMatrix = std::vector<std::vector<int>>;

struct Ring {
  std::vector<int> order;  // host indices in ring order, starting with 0
  int width = 0;           // cables on the thinnest ring edge
};

struct RingSearchStats {
  bool gave_up = false;  // the step budget ran out: no answer, not "no ring"
  long budget_left = 0;  // > 0: use this budget per width instead of the default
};

// The best ring through all hosts, or nullopt. Two hosts with a cable form a
// ring; a single host does not. At most 64 hosts (larger inputs: nullopt).
std::optional<Ring> find_ring(const CountMatrix& count, RingSearchStats* stats = nullptr);

// The longest rings (cycles through a subset of hosts, 2 hosts sharing a
// cable count as one) when there is no full ring: at most `limit` of them,
// each listed once (as a set), longest first. The search is bounded
// (`budget` expansions), so on very large graphs the result is the best
// found, not a proof.
std::vector<Ring> longest_partial_rings(const CountMatrix& count, size_t limit = 5,
                                        long budget = 200000);

}  // namespace distkit::topology
