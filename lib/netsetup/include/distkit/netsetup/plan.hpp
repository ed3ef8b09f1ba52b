// The address plan: one /30 per cable, taken in order from --subnet, the
// lower endpoint (host name, then interface) getting the first host address
// (.1) and the other the second (.2). Cables are numbered after sorting them
// by their endpoints, not in probe or file order, so the same cabling always
// gets the same plan. A /30 that overlaps any address or route already on
// any host (other than what an earlier distconfig setup recorded as its
// own) is skipped and the skip is reported: the plan goes around it.
// Pure: no I/O.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "distkit/netsetup/ipv4.hpp"
#include "distkit/netsetup/links.hpp"
#include "distkit/netsetup/net_state.hpp"

namespace distkit::netsetup {

// The default --subnet. Why this range: see man/distconfig.1.md (NETWORK
// SETUP): private (RFC 1918), and clear of 192.168.0.0/16 and 172.16/12
// (home routers, Docker), 10.0-10.1 and 10.10 (common lab/VPN defaults),
// 10.96-10.111/10.244 (Kubernetes), 100.64/10 (Tailscale/CGNAT) and
// 169.254/16 (link-local, the Thunderbolt Bridge's self-assigned address).
inline constexpr const char* kDefaultSubnet = "10.213.0.0/16";

struct LinkPlan {
  Cable cable;         // as given
  Cidr net;            // the /30
  std::string addr_a;  // address of cable.a's interface
  std::string addr_b;  // address of cable.b's interface
  // The address of `e`'s side and of the other side.
  const std::string& address_of(const Endpoint& e) const { return e == cable.a ? addr_a : addr_b; }
  const std::string& peer_address_of(const Endpoint& e) const {
    return e == cable.a ? addr_b : addr_a;
  }
};

struct Plan {
  Cidr subnet;
  std::vector<LinkPlan> links;     // same order as the cables given
  std::vector<std::string> skips;  // "10.213.0.0/30: h2 has 10.213.0.1/24 on eth0"
};

// Throws distkit::UsageError (subject "--subnet") when the subnet has no
// room left for every cable. `hosts` maps a host name to what it has now;
// hosts missing from it are taken as having nothing.
Plan plan_addresses(const std::vector<Cable>& cables, const Cidr& subnet,
                    const std::map<std::string, HostNet>& hosts);

// The links of `plan` with an endpoint on `host`, in plan order.
std::vector<const LinkPlan*> links_of(const Plan& plan, const std::string& host);

}  // namespace distkit::netsetup
