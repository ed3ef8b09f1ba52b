// See plan.hpp.
#include "distkit/netsetup/plan.hpp"

#include <algorithm>
#include <numeric>

#include "distkit/util/error.hpp"

namespace distkit::netsetup {

namespace {

std::pair<Endpoint, Endpoint> ordered(const Cable& c) {
  return c.a < c.b ? std::pair{c.a, c.b} : std::pair{c.b, c.a};
}

// Why `net` cannot be used, or "" when it is free.
std::string conflict(const Cidr& net, const std::map<std::string, HostNet>& hosts) {
  for (const auto& [name, h] : hosts) {
    for (const auto& a : h.addresses)
      if (a.cidr.overlaps(net) && !h.ours(a))
        return name + " has " + a.cidr.str() + " on " + a.iface;
    for (const auto& r : h.routes)
      if (r.dest.prefix > 0 && r.dest.overlaps(net) && !h.ours(r))
        return name + " routes " + Cidr{r.dest.network(), r.dest.prefix}.str() +
               (r.iface.empty() ? std::string() : " via " + r.iface);
  }
  return "";
}

}  // namespace

Plan plan_addresses(const std::vector<Cable>& cables, const Cidr& subnet,
                    const std::map<std::string, HostNet>& hosts) {
  Plan plan;
  plan.subnet = subnet;
  plan.links.resize(cables.size());
  std::vector<size_t> order(cables.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::ranges::stable_sort(order, {}, [&](size_t i) { return ordered(cables[i]); });
  const uint64_t slots = (uint64_t(1) << (32 - subnet.prefix)) / 4;
  uint64_t next = 0;
  for (size_t idx : order) {
    Cidr net{};
    for (;;) {
      if (next >= slots)
        throw UsageError("--subnet",
                         subnet.str() + " has no free /30 left for " +
                             std::to_string(cables.size()) + " cable(s) (" +
                             std::to_string(plan.skips.size()) + " in use on the hosts)",
                         "pick a larger or another --subnet");
      net = Cidr{subnet.network() + uint32_t(next * 4), 30};
      ++next;
      std::string why = conflict(net, hosts);
      if (why.empty()) break;
      plan.skips.push_back(net.str() + ": " + why);
    }
    // The lower endpoint gets .1 (see plan.hpp).
    std::string first = format_ipv4(net.network() + 1), second = format_ipv4(net.network() + 2);
    if (cables[idx].a != ordered(cables[idx]).first) std::swap(first, second);
    plan.links[idx] = {cables[idx], net, first, second};
  }
  return plan;
}

std::vector<const LinkPlan*> links_of(const Plan& plan, const std::string& host) {
  std::vector<const LinkPlan*> out;
  for (const auto& l : plan.links)
    if (l.cable.a.host == host || l.cable.b.host == host) out.push_back(&l);
  return out;
}

}  // namespace distkit::netsetup
