// distconfig --over thunderbolt: topology, backend choice with every reason
// a backend cannot be used, and the hostfile for the chosen one.
#pragma once

#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/topology/analysis.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::configtool {

// Warnings about the cabling (kinds no-thunderbolt, unmapped-port,
// asymmetric-link, outside-cable), reported.
void warn_topology(Services& s, const topology::Topology& t,
                   const std::vector<probe::HostInfo>& infos);

// The backend to use (explicit, ring for --links, or automatic). Prints every
// reason on stderr and throws RemoteError when the requested/any backend
// cannot work.
topology::Choice pick_backend(const Options& o, Services& s, const topology::Topology& t,
                              const topology::Analysis& a);

// The hostfile for `c` (not none); the ring hostfile's ips are `addresses`
// (the network setup plan, one entry per topology link).
hostfile::Hostfile thunderbolt_hostfile(topology::Choice c, const topology::Topology& t,
                                        const topology::Analysis& a,
                                        const std::vector<probe::HostInfo>& infos,
                                        const std::vector<std::string>& envs,
                                        const std::vector<topology::LinkAddresses>& addresses);

// What keeps `backend` (ring, jaccl, jaccl-ring) from running, per host,
// pair and link (kinds missing-cable, ring-gap, tb4-link, no-interface,
// too-many-queue-pairs, rdma-disabled); none when it can run.
std::vector<Problem> backend_problems(const std::string& backend, const topology::Topology& t,
                                      const topology::Analysis& a);

// Why each backend can or cannot run, "" when it can.
std::string ring_verdict(const topology::Topology& t, const topology::Analysis& a);
std::string jaccl_verdict(const topology::Topology& t, const topology::Analysis& a);
std::string jaccl_ring_verdict(const topology::Topology& t, const topology::Analysis& a);

}  // namespace distkit::configtool
