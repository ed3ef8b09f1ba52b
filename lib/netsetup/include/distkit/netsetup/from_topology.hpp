// Between the Thunderbolt topology (lib/topology) and network setup: the
// cables of a discovered topology, a topology built from a --links file
// (so ring search, backend choice and hostfiles work for hosts declared by
// hand), and the plan's addresses in the shape the ring hostfile takes.
#pragma once

#include <string>
#include <vector>

#include "distkit/netsetup/links.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::netsetup {

// One cable per topology link, same order; cable.a is the link's `a` side.
// An end without an interface name (receptacle missing from networksetup)
// has an empty iface: the plan still numbers it, setup skips it.
std::vector<Cable> cables_from_topology(const topology::Topology& t);

// A topology over `hosts` (in this order) whose links are `cables`
// (symmetric, speed unknown, each host's ports sorted by interface name).
// Every cable's hosts must be in `hosts` (see check_link_hosts).
topology::Topology topology_from_cables(const std::vector<std::string>& hosts,
                                        const std::vector<Cable>& cables);

// plan.links as topology::LinkAddresses (a = cable.a's address).
std::vector<topology::LinkAddresses> link_addresses(const Plan& plan);

}  // namespace distkit::netsetup
