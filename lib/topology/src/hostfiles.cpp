// See hostfiles.hpp.
#include "distkit/topology/hostfiles.hpp"

namespace distkit::topology {

namespace {

std::vector<std::string> management_ips(const probe::HostInfo& info) {
  if (auto ip = info.management_address(); !ip.empty()) return {ip};
  return {};
}

// Devices of `host` on its first `width` cables to `peer`.
std::vector<std::string> devices_to(const Topology& t, int host, int peer, int width) {
  std::vector<std::string> out;
  for (int l : t.links_between(host, peer, size_t(width)))
    out.push_back("rdma_" + t.iface(host, t.links[size_t(l)]));
  return out;
}

// `devices` as one rdma entry: null when empty, the name alone for one.
hostfile::RdmaEntry rdma_entry(std::vector<std::string> devices) {
  if (devices.empty()) return std::monostate{};
  if (devices.size() == 1) return devices[0];
  return devices;
}

}  // namespace

hostfile::Hostfile ethernet_hostfile(const std::vector<probe::HostInfo>& infos,
                                     const std::vector<std::string>& envs) {
  hostfile::Hostfile hf{hostfile::Backend::none, envs, {}};
  for (const auto& info : infos) hf.hosts.push_back({info.host, management_ips(info), {}});
  return hf;
}

hostfile::Hostfile jaccl_hostfile(const Topology& t, const std::vector<probe::HostInfo>& infos,
                                  const std::vector<std::string>& envs) {
  hostfile::Hostfile hf{hostfile::Backend::jaccl, envs, {}};
  const int n = int(infos.size());
  for (int i = 0; i < n; ++i) {
    hostfile::Host h{infos[size_t(i)].host, management_ips(infos[size_t(i)]), {}};
    for (int j = 0; j < n; ++j)
      h.rdma.push_back(rdma_entry(i == j ? std::vector<std::string>{} : devices_to(t, i, j, 1)));
    hf.hosts.push_back(std::move(h));
  }
  return hf;
}

hostfile::Hostfile jaccl_ring_hostfile(const Topology& t, const std::vector<probe::HostInfo>& infos,
                                       const Ring& ring, const std::vector<std::string>& envs) {
  hostfile::Hostfile hf{hostfile::Backend::jaccl_ring, envs, {}};
  const size_t n = ring.order.size();
  for (size_t i = 0; i < n; ++i) {
    int node = ring.order[i];
    int prev = ring.order[(i + n - 1) % n], next = ring.order[(i + 1) % n];
    hostfile::Host h{infos[size_t(node)].host, management_ips(infos[size_t(node)]), {}};
    for (int other : ring.order)
      h.rdma.push_back(rdma_entry((other == node || (other != prev && other != next))
                                      ? std::vector<std::string>{}
                                      : devices_to(t, node, other, ring.width)));
    hf.hosts.push_back(std::move(h));
  }
  return hf;
}

hostfile::Hostfile ring_hostfile(const Topology& t, const std::vector<LinkAddresses>& plan,
                                 const Ring& ring, const std::vector<std::string>& envs) {
  auto address_on = [&](int link, int host) -> const std::string& {
    const Link& l = t.links[size_t(link)];
    return host == l.a ? plan.at(size_t(link)).a : plan.at(size_t(link)).b;
  };
  hostfile::Hostfile hf{hostfile::Backend::ring, envs, {}};
  const size_t n = ring.order.size();
  for (size_t i = 0; i < n; ++i) {
    int node = ring.order[i], prev = ring.order[(i + n - 1) % n];
    hostfile::Host h{t.hosts[size_t(node)].name, {}, {}};
    for (int l : t.links_between(node, prev, size_t(ring.width)))
      h.ips.push_back(address_on(l, node));
    hf.hosts.push_back(std::move(h));
  }
  return hf;
}

}  // namespace distkit::topology
