// Fixture builders for topology tests: hosts from the shared scenarios and
// real captures (tests/data), and small synthetic Macs built in code.
#pragma once

#include <string>
#include <vector>

#include "distkit/probe/host_info.hpp"
#include "distkit/probe/probe_files.hpp"
#include "test_data.hpp"

namespace distkit::test {

inline std::vector<probe::HostInfo> scenario_hosts(const std::string& scenario,
                                                   const std::vector<std::string>& names) {
  std::vector<probe::HostInfo> out;
  for (const auto& n : names) {
    auto c = probe::load_capture(data_dir() / "scenarios" / scenario, n);
    if (!c) throw std::runtime_error("no scenario data for " + n);
    out.push_back(probe::build_host_info(n, *c));
  }
  return out;
}

// A synthetic Mac: ports "1".."n" on en(k+1), TB5 speed, RDMA devices for
// every port unless `rdma` is false. Cables are added with cable().
inline probe::HostInfo mac(const std::string& name, int ports, bool rdma = true) {
  probe::HostInfo h;
  h.host = name;
  h.macos = true;
  h.has_thunderbolt = true;
  for (int p = 1; p <= ports; ++p) {
    probe::TbPort tp;
    tp.domain_uuid = name + "-port" + std::to_string(p);
    tp.receptacle = std::to_string(p);
    tp.speed = "Up to 120 Gb/s";
    h.thunderbolt.ports.push_back(tp);
    std::string dev = "en" + std::to_string(p + 1);
    h.hardware_ports.push_back({"Thunderbolt " + std::to_string(p), dev});
    if (rdma) h.rdma_devices.push_back({"rdma_" + dev});
  }
  h.en0_address = "10.0.0." + std::to_string(name.size());
  return h;
}

// Cables port pa of x to port pb of y (1-based receptacles). `both`: each
// side lists the other (false: only x lists y, as behind a dock).
inline void cable(probe::HostInfo& x, int pa, probe::HostInfo& y, int pb,
                  const std::string& speed = "80 Gb/s", bool both = true) {
  auto& px = x.thunderbolt.ports[size_t(pa - 1)];
  auto& py = y.thunderbolt.ports[size_t(pb - 1)];
  px.speed = py.speed = speed;
  px.connected = py.connected = true;
  px.peers.push_back({py.domain_uuid});
  if (both) py.peers.push_back({px.domain_uuid});
}

}  // namespace distkit::test
