// See from_topology.hpp.
#include "distkit/netsetup/from_topology.hpp"

#include <algorithm>
#include <map>

namespace distkit::netsetup {

std::vector<Cable> cables_from_topology(const topology::Topology& t) {
  std::vector<Cable> out;
  for (const auto& l : t.links)
    out.push_back({{t.hosts[size_t(l.a)].name, t.iface(l.a, l)},
                   {t.hosts[size_t(l.b)].name, t.iface(l.b, l)}});
  return out;
}

topology::Topology topology_from_cables(const std::vector<std::string>& hosts,
                                        const std::vector<Cable>& cables) {
  topology::Topology t;
  std::map<std::string, int> index;
  for (const auto& h : hosts) {
    index.emplace(h, int(t.hosts.size()));
    t.hosts.push_back({h, {}, {}});
  }
  for (const auto& c : cables)
    for (const Endpoint* e : {&c.a, &c.b}) {
      topology::Port p;
      p.iface = e->iface;
      p.in_use = true;
      t.hosts[size_t(index.at(e->host))].ports.push_back(p);
    }
  for (auto& h : t.hosts) std::ranges::sort(h.ports, {}, &topology::Port::iface);
  auto port_index = [&](const Endpoint& e) {  // its port is there: each endpoint added one
    const auto& ports = t.hosts[size_t(index.at(e.host))].ports;
    return int(std::ranges::find(ports, e.iface, &topology::Port::iface) - ports.begin());
  };
  t.count.assign(hosts.size(), std::vector<int>(hosts.size(), 0));
  for (const auto& c : cables) {
    topology::Link l{
        index.at(c.a.host), port_index(c.a), index.at(c.b.host), port_index(c.b), true, true};
    t.links.push_back(l);
    ++t.count[size_t(l.a)][size_t(l.b)];
    ++t.count[size_t(l.b)][size_t(l.a)];
  }
  return t;
}

std::vector<topology::LinkAddresses> link_addresses(const Plan& plan) {
  std::vector<topology::LinkAddresses> out;
  for (const auto& l : plan.links) out.push_back({l.addr_a, l.addr_b});
  return out;
}

}  // namespace distkit::netsetup
