// libFuzzer entry for the topology: the input is split at the first NUL
// into two hosts' system_profiler JSON (the second also serves as both
// hosts' networksetup listing), then links, ring search, analysis, DOT,
// matrix and every hostfile are built. Nothing may crash or throw except
// the documented UsageError of the address plan.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/topology/analysis.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/topology/render.hpp"
#include "distkit/util/error.hpp"

namespace tp = distkit::topology;
namespace pr = distkit::probe;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  size_t nul = in.find('\0');
  std::string_view a = in.substr(0, nul),
                   b = nul == std::string_view::npos ? in : in.substr(nul + 1);
  std::vector<pr::HostInfo> hosts;
  for (auto [name, sp] : {std::pair{"x", a}, std::pair{"y", b}, std::pair{"z", a}}) {
    pr::Capture c;
    c.sections["system_profiler_SPThunderboltDataType"] = {std::string(sp), 0};
    c.sections["networksetup_listallhardwareports"] = {std::string(b), 0};
    c.sections["ibv_devices"] = {std::string(b), 0};
    hosts.push_back(pr::build_host_info(name, c));
  }
  auto t = tp::build_topology(hosts);
  auto an = tp::analyze(t, hosts);
  (void)tp::render_dot(t);
  (void)tp::render_matrix(t);
  for (const auto& m : an.missing) (void)tp::free_ports_text(t, m.a);
  for (const auto& g : an.mesh_rdma.hosts_missing) (void)tp::render_recovery(t, g);
  (void)tp::longest_partial_rings(t.count, 5, 10000);
  try {
    // Any addresses do: the plan itself is lib/netsetup's (fuzzed there).
    std::vector<tp::LinkAddresses> plan(t.links.size(), tp::LinkAddresses{"10.0.0.1", "10.0.0.2"});
    (void)tp::jaccl_hostfile(t, hosts, {});
    if (an.ring) {
      (void)tp::ring_hostfile(t, plan, *an.ring, {});
      (void)tp::jaccl_ring_hostfile(t, hosts, *an.ring, {});
    }
  } catch (const distkit::UsageError&) {
  }
  return 0;
}
