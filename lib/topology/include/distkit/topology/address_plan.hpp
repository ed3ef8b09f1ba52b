// The point-to-point address plan MLX uses (SPEC §4): one /30 per cable,
// 192.168.a.(b+1) on the side that lists the cable first and .(b+2) on the
// other, b advancing by 4. The ring hostfile's `ips` are these addresses, so
// distconfig must assign them exactly as the reference does for hostfiles
// to match. (Its weaknesses, e.g. colliding with a 192.168.0.0/24 LAN, are
// part 2's business: network setup.)
#pragma once

#include <string>
#include <vector>

#include "distkit/topology/topology.hpp"

namespace distkit::topology {

struct LinkAddresses {
  std::string a;  // address of the link's `a` side
  std::string b;
};

// One entry per topology link, same order. Throws distkit::UsageError when
// the plan runs out of addresses (more than 16384 cables).
std::vector<LinkAddresses> plan_addresses(const Topology& t);

// Host i's address on link l.
const std::string& address_on(const std::vector<LinkAddresses>& plan, const Topology& t,
                              int link, int host);

}  // namespace distkit::topology
