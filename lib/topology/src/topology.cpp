// Building links from port UUIDs (see topology.hpp).
#include "distkit/topology/topology.hpp"

#include <algorithm>
#include <map>

namespace distkit::topology {

std::string Port::label() const {
  std::string s = "Thunderbolt " + (receptacle.empty() ? std::string("?") : receptacle);
  return iface.empty() ? s : s + " (" + iface + ")";
}

std::vector<int> Topology::links_between(int i, int j, size_t max) const {
  std::vector<int> out;
  for (size_t l = 0; l < links.size() && out.size() < max; ++l) {
    const Link& k = links[l];
    if ((k.a == i && k.b == j) || (k.a == j && k.b == i)) out.push_back(int(l));
  }
  return out;
}

const std::string& Topology::iface(int host, const Link& l) const {
  return hosts[size_t(host)].ports[size_t(l.port_on(host))].iface;
}

std::vector<const Port*> Topology::free_ports(int host) const {
  std::vector<const Port*> out;
  for (const auto& p : hosts[size_t(host)].ports)
    if (!p.in_use && p.peer_uuids.empty()) out.push_back(&p);
  return out;
}

namespace {

Host make_host(const probe::HostInfo& info) {
  Host h;
  h.name = info.host;
  for (const auto& tp : info.thunderbolt.ports) {
    Port p;
    p.uuid = tp.domain_uuid;
    p.receptacle = tp.receptacle;
    p.iface = probe::thunderbolt_interface(info.hardware_ports, tp.receptacle).value_or("");
    if (p.iface.empty()) h.unmapped_receptacles.push_back(tp.receptacle);
    p.linked_gbps = tp.linked_gbps();
    p.max_gbps = tp.max_gbps();
    p.in_use = tp.connected;
    for (const auto& peer : tp.peers) p.peer_uuids.push_back(peer.domain_uuid);
    h.ports.push_back(std::move(p));
  }
  std::ranges::stable_sort(h.ports, {}, &Port::iface);
  return h;
}

int link_speed(const Port& x, const Port& y) {
  if (x.linked_gbps && y.linked_gbps) return std::min(x.linked_gbps, y.linked_gbps);
  return std::max(x.linked_gbps, y.linked_gbps);
}

}  // namespace

Topology build_topology(const std::vector<probe::HostInfo>& infos) {
  Topology t;
  for (const auto& info : infos) t.hosts.push_back(make_host(info));
  std::map<std::string, std::pair<int, int>> owner;  // uuid -> (host, port)
  for (size_t i = 0; i < t.hosts.size(); ++i)
    for (size_t p = 0; p < t.hosts[i].ports.size(); ++p)
      owner.emplace(t.hosts[i].ports[p].uuid, std::make_pair(int(i), int(p)));
  std::map<std::pair<std::pair<int, int>, std::pair<int, int>>, size_t> index;
  for (size_t i = 0; i < t.hosts.size(); ++i)
    for (size_t p = 0; p < t.hosts[i].ports.size(); ++p)
      for (const auto& uuid : t.hosts[i].ports[p].peer_uuids) {
        auto o = owner.find(uuid);
        std::pair<int, int> me{int(i), int(p)};
        if (o == owner.end()) t.external.push_back({int(i), int(p), uuid});
        if (o == owner.end() || o->second.first == int(i)) continue;
        auto key = me < o->second ? std::make_pair(me, o->second) : std::make_pair(o->second, me);
        auto [found, fresh] = index.try_emplace(key, t.links.size());
        if (!fresh) {
          Link& l = t.links[found->second];
          (l.a == me.first && l.pa == me.second ? l.seen_by_a : l.seen_by_b) = true;
          continue;
        }
        Link l{me.first, me.second, o->second.first, o->second.second, true, false, 0};
        l.gbps = link_speed(t.hosts[i].ports[p], t.hosts[size_t(l.b)].ports[size_t(l.pb)]);
        t.links.push_back(l);
      }
  t.count.assign(t.hosts.size(), std::vector<int>(t.hosts.size(), 0));
  for (const auto& l : t.links) {
    ++t.count[size_t(l.a)][size_t(l.b)];
    ++t.count[size_t(l.b)][size_t(l.a)];
  }
  return t;
}

}  // namespace distkit::topology
