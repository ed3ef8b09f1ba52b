// See analysis.hpp.
#include "distkit/topology/analysis.hpp"

#include <algorithm>
#include <map>

namespace distkit::topology {

namespace {

std::vector<int> ring_links(const Topology& t, const Ring& r) {
  std::vector<int> out;
  const size_t n = r.order.size();
  const size_t edges = n == 2 ? 1 : n;  // two hosts: one edge, both ways
  for (size_t i = 0; i < edges; ++i) {
    auto between = t.links_between(r.order[i], r.order[(i + 1) % n], size_t(r.width));
    out.insert(out.end(), between.begin(), between.end());
  }
  return out;
}

}  // namespace

RdmaReadiness check_rdma(const Topology& t, const std::vector<probe::HostInfo>& infos,
                         const std::vector<int>& links) {
  RdmaReadiness r;
  std::map<int, std::vector<std::string>> missing;
  std::map<std::pair<int, std::string>, int> qps;
  for (int li : links) {
    const Link& l = t.links[size_t(li)];
    if (!l.tb5()) {  // "RDMA needs Thunderbolt 5", not "enable RDMA"
      r.tb4_links.push_back(li);
      continue;
    }
    bool unmapped = false;
    for (int h : {l.a, l.b}) {
      const std::string& iface = t.iface(h, l);
      unmapped |= iface.empty();
      if (iface.empty()) continue;
      std::string dev = "rdma_" + iface;
      ++qps[{h, dev}];
      if (!infos[size_t(h)].has_rdma_device(dev) && !std::ranges::count(missing[h], dev))
        missing[h].push_back(dev);
    }
    if (unmapped) r.unmapped_links.push_back(li);
  }
  for (auto& [h, devs] : missing) r.hosts_missing.push_back({h, devs});
  for (auto& [key, n] : qps)
    if (n > kMaxQueuePairsPerDevice) r.over_limit.push_back({key.first, key.second, n});
  return r;
}

Analysis analyze(const Topology& t, const std::vector<probe::HostInfo>& infos) {
  Analysis a;
  const int n = int(t.hosts.size());
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      auto between = t.links_between(i, j);
      if (between.empty())
        a.missing.push_back({i, j});
      else
        a.mesh_links.push_back(between[0]);
    }
  RingSearchStats stats;
  a.ring = find_ring(t.count, &stats);
  a.ring_search_gave_up = stats.gave_up;
  if (a.ring) a.ring_links = ring_links(t, *a.ring);
  a.mesh_rdma = check_rdma(t, infos, a.mesh_links);
  a.ring_rdma = check_rdma(t, infos, a.ring_links);
  return a;
}

Choice choose_backend(const Analysis& a) {
  if (a.mesh() && a.mesh_rdma.ready()) return Choice::jaccl;
  if (a.ring && a.ring_rdma.ready()) return Choice::jaccl_ring;
  if (a.ring) return Choice::ring;
  return Choice::none;
}

}  // namespace distkit::topology
