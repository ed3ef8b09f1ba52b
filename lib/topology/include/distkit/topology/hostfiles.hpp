// Hostfiles per backend (SPEC §2), from the topology and the probes. Pure.
//   ethernet:   backend "", ips = [management address]
//   jaccl:      ips = [management address]; rdma[j] = "rdma_<my iface to j>"
//               (the first cable), rdma[i] = null
//   jaccl-ring: host order = ring order; rdma = device (or list of devices,
//               one per ring cable) for the two ring neighbours, else null
//   ring:       host order = ring order; ips = my addresses on the ring
//               cables to the previous host (from the address plan of
//               lib/netsetup); rdma = []
// A host without a management address gets `ips: []` (the caller warns).
#pragma once

#include <string>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/topology/ring.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::topology {

// The two addresses of one link (one /30 per cable, planned by
// lib/netsetup): `a` on the link's `a` side.
struct LinkAddresses {
  std::string a;
  std::string b;
};

hostfile::Hostfile ethernet_hostfile(const std::vector<probe::HostInfo>& infos,
                                     const std::vector<std::string>& envs);

hostfile::Hostfile jaccl_hostfile(const Topology& t, const std::vector<probe::HostInfo>& infos,
                                  const std::vector<std::string>& envs);

hostfile::Hostfile jaccl_ring_hostfile(const Topology& t, const std::vector<probe::HostInfo>& infos,
                                       const Ring& ring, const std::vector<std::string>& envs);

// `plan` holds one entry per topology link, in the same order.
hostfile::Hostfile ring_hostfile(const Topology& t, const std::vector<LinkAddresses>& plan,
                                 const Ring& ring, const std::vector<std::string>& envs);

}  // namespace distkit::topology
