// What the topology allows: full mesh (and the missing pairs when not), the
// best ring, RDMA readiness of the links each backend would use, and the
// automatic backend choice (MLX's rule: RDMA + mesh -> jaccl, RDMA + ring ->
// jaccl-ring, ring -> ring). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distkit/probe/host_info.hpp"
#include "distkit/topology/ring.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::topology {

struct MissingPair {
  int a = 0, b = 0;
};

// RDMA over Thunderbolt needs, on every used link, the `rdma_<iface>` device
// on both ends (SPEC §1: not "any rdma_ token"), a Thunderbolt 5 link, and
// at most 10 queue pairs per device (TN3205).
struct RdmaReadiness {
  struct HostGap {
    int host = 0;
    std::vector<std::string> missing_devices;  // e.g. rdma_en3
  };
  // A device that the used links would give more queue pairs than it has.
  struct DeviceExcess {
    int host = 0;
    std::string device;  // e.g. rdma_en2
    int queue_pairs = 0;
  };
  std::vector<HostGap> hosts_missing;    // need the Recovery steps
  std::vector<int> tb4_links;            // link indices slower than TB5
  std::vector<int> unmapped_links;       // an end without an interface name
  std::vector<DeviceExcess> over_limit;  // more than kMaxQueuePairsPerDevice
  bool ready() const {
    return hosts_missing.empty() && tb4_links.empty() && unmapped_links.empty() &&
           over_limit.empty();
  }
};

struct Analysis {
  std::vector<MissingPair> missing;  // empty: full mesh
  std::optional<Ring> ring;
  bool ring_search_gave_up = false;  // no ring found within the step budget
  std::vector<int> mesh_links;       // one link per pair (the first)
  std::vector<int> ring_links;       // the ring's links, `width` per edge
  RdmaReadiness mesh_rdma, ring_rdma;
  bool mesh() const { return missing.empty() && !mesh_links.empty(); }
};

inline constexpr int kMaxQueuePairsPerDevice = 10;

Analysis analyze(const Topology& t, const std::vector<probe::HostInfo>& infos);

RdmaReadiness check_rdma(const Topology& t, const std::vector<probe::HostInfo>& infos,
                         const std::vector<int>& links);

enum class Choice { none, ring, jaccl, jaccl_ring };
// The automatic choice; `none` when there is neither a mesh nor a ring.
Choice choose_backend(const Analysis& a);

}  // namespace distkit::topology
