// See host_info.hpp: one small step per section.
#include "distkit/probe/host_info.hpp"

#include <algorithm>

#include "distkit/util/strings.hpp"

namespace distkit::probe {

namespace {

std::string first_line(const Section* s) {
  if (!s) return {};
  auto lines = split_lines(s->output);
  return lines.empty() ? std::string() : std::string(trim(lines[0]));
}

void add_system(HostInfo& h, const Capture& c) {
  if (auto* s = c.ok("uname")) h.uname = parse_uname(s->output);
  h.hw_model = first_line(c.ok("hw_model"));
  if (auto* s = c.ok("sw_vers"))
    h.os = parse_sw_vers(s->output);
  else if (auto* r = c.ok("os_release"))
    h.os = parse_os_release(r->output);
  h.macos = h.uname.kernel == "Darwin" || c.ok("sw_vers") ||
            c.find("system_profiler_SPThunderboltDataType");
  // 127: no sudo at all (unknown, not "asks for a password").
  if (auto* s = c.find("sudo"); s && s->status != 127) h.passwordless_sudo = s->status == 0;
  h.python_version =
      parse_version_line(c.ok("python3_version") ? c.ok("python3_version")->output : "");
  h.mlx_version = parse_version_line(c.ok("mlx_version") ? c.ok("mlx_version")->output : "");
}

void add_thunderbolt(HostInfo& h, const Capture& c) {
  if (auto* s = c.ok("system_profiler_SPThunderboltDataType")) {
    h.thunderbolt = parse_system_profiler_thunderbolt(s->output);
    h.has_thunderbolt = h.thunderbolt.error.empty();
    if (!h.has_thunderbolt) h.notes.push_back(h.thunderbolt.error);
  }
  if (auto* s = c.ok("networksetup_listallhardwareports"))
    h.hardware_ports = parse_hardware_ports(s->output);
  if (auto* s = c.ok("thunderbolt_sysfs")) h.linux_thunderbolt = parse_linux_thunderbolt(s->output);
}

void add_rdma(HostInfo& h, const Capture& c) {
  if (auto* s = c.ok("ibv_devices")) {
    h.has_ibv_devices = true;
    h.rdma_devices = parse_ibv_devices(s->output);
  }
  if (auto* s = c.ok("ibv_devinfo")) h.rdma_ports = parse_ibv_devinfo(s->output);
  if (auto* s = c.ok("infiniband_sysfs")) {
    for (auto& p : parse_linux_infiniband(s->output)) {
      if (!h.has_rdma_device(p.device)) h.rdma_devices.push_back({p.device});
      h.rdma_ports.push_back(p);
    }
  }
  if (auto* s = c.ok("rdma_ctl_status")) h.rdma_ctl = parse_rdma_ctl_status(s->output);
}

void add_network(HostInfo& h, const Capture& c) {
  if (auto* s = c.ok("ifconfig")) h.interfaces = parse_ifconfig(s->output);
  if (auto* s = c.ok("ip_addr")) h.interfaces = parse_ip_addr(s->output);
  if (auto* s = c.ok("ifconfig_bridge0")) {
    auto ifs = parse_ifconfig(s->output);
    if (auto* b = find_interface(ifs, "bridge0")) h.bridge0 = *b;
  } else if (auto* b = find_interface(h.interfaces, "bridge0")) {
    h.bridge0 = *b;
  }
  if (auto* s = c.ok("route_to_launcher")) h.route_to_launcher = parse_route_get(s->output);
  auto conn = split(first_line(c.ok("ssh_connection")), ' ');
  if (conn.size() >= 3) h.ssh_server_address = conn[2];
  h.en0_address = first_line(c.ok("ipconfig_getifaddr_en0"));
  h.en1_address = first_line(c.ok("ipconfig_getifaddr_en1"));
  // ifconfig -a holds the same addresses (the probe asks ipconfig for en0
  // only, as captured scenarios have it).
  for (auto [name, addr] : {std::pair{"en0", &h.en0_address}, std::pair{"en1", &h.en1_address}}) {
    const Interface* i = find_interface(h.interfaces, name);
    if (addr->empty() && i && !i->ipv4.empty()) *addr = i->ipv4.front();
  }
}

}  // namespace

bool HostInfo::has_rdma_device(const std::string& name) const {
  return std::ranges::find(rdma_devices, name, &RdmaDevice::name) != rdma_devices.end();
}

std::string HostInfo::rdma_port_state(const std::string& device) const {
  auto it = std::ranges::find(rdma_ports, device, &RdmaPortState::device);
  return it == rdma_ports.end() ? std::string() : it->state;
}

std::string HostInfo::management_address() const {
  if (route_to_launcher) {
    if (!route_to_launcher->source.empty()) return route_to_launcher->source;
    if (auto* i = find_interface(interfaces, route_to_launcher->interface))
      if (!i->ipv4.empty()) return i->ipv4.front();
  }
  if (!ssh_server_address.empty()) return ssh_server_address;
  if (!en0_address.empty()) return en0_address;
  return en1_address;
}

HostInfo build_host_info(const std::string& host, const Capture& capture) {
  HostInfo h;
  h.host = host;
  add_system(h, capture);
  add_thunderbolt(h, capture);
  add_rdma(h, capture);
  add_network(h, capture);
  return h;
}

}  // namespace distkit::probe
