// See address_plan.hpp. Links are already in the order MLX assigns them
// (hosts in order, each host's ports sorted by interface).
#include "distkit/topology/address_plan.hpp"

#include "distkit/util/error.hpp"

namespace distkit::topology {

std::vector<LinkAddresses> plan_addresses(const Topology& t) {
  std::vector<LinkAddresses> out;
  int hi = 0, lo = 0;
  for (size_t l = 0; l < t.links.size(); ++l) {
    if (hi > 255)
      throw UsageError("thunderbolt", "too many cables for the 192.168.0.0/16 address plan",
                       "use fewer hosts or cables");
    std::string base = "192.168." + std::to_string(hi) + ".";
    out.push_back({base + std::to_string(lo + 1), base + std::to_string(lo + 2)});
    lo += 4;
    if (lo > 255) {
      ++hi;
      lo = 0;
    }
  }
  return out;
}

const std::string& address_on(const std::vector<LinkAddresses>& plan, const Topology& t,
                              int link, int host) {
  const Link& l = t.links[size_t(link)];
  return host == l.a ? plan[size_t(link)].a : plan[size_t(link)].b;
}

}  // namespace distkit::topology
