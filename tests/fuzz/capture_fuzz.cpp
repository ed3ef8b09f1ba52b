// libFuzzer entry for the probe parsers: arbitrary bytes as a whole capture
// and as the output of every command. Checked besides "no crash, no
// sanitizer report": parse_capture either returns or throws RemoteError
// (nothing else escapes); a parsed capture survives render -> parse; no
// other parser throws at all.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "distkit/probe/capture.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/util/error.hpp"

// The probe library's embedded scripts are generated sources, which the
// fuzz harness does not compile; the runner is not fuzzed.
namespace distkit::embedded::probes {
std::optional<std::string_view> find(std::string_view) { return std::nullopt; }
}  // namespace distkit::embedded::probes

namespace pr = distkit::probe;

namespace {

void require(bool ok) {
  if (!ok) __builtin_trap();
}

void every_parser(std::string_view in) {
  (void)pr::parse_system_profiler_thunderbolt(in);
  (void)pr::parse_linux_thunderbolt(in);
  auto ports = pr::parse_hardware_ports(in);
  (void)pr::thunderbolt_interface(ports, "1");
  (void)pr::parse_ibv_devices(in);
  (void)pr::parse_ibv_devinfo(in);
  (void)pr::parse_rdma_ctl_status(in);
  (void)pr::parse_linux_infiniband(in);
  (void)pr::parse_ifconfig(in);
  (void)pr::parse_ip_addr(in);
  (void)pr::parse_route_get(in);
  (void)pr::parse_sw_vers(in);
  (void)pr::parse_os_release(in);
  (void)pr::parse_uname(in);
  (void)pr::parse_version_line(in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  every_parser(in);
  try {
    pr::Capture c = pr::parse_capture(in, "fuzz");
    pr::Capture back = pr::parse_capture(pr::render_capture(c), "fuzz");
    for (const auto& [name, s] : c.sections)
      if (s.status >= 0 && name.find('\n') == std::string::npos) {
        auto it = back.sections.find(name);
        require(it != back.sections.end() && it->second.output == s.output);
      }
    (void)pr::build_host_info("fuzz", c);
  } catch (const distkit::RemoteError&) {
  }
  // The input as every section of one host.
  pr::Capture all;
  for (const char* s : {"uname", "sw_vers", "system_profiler_SPThunderboltDataType",
                        "networksetup_listallhardwareports", "ibv_devices", "ibv_devinfo",
                        "rdma_ctl_status", "ifconfig", "ip_addr", "route_to_launcher",
                        "ssh_connection", "ipconfig_getifaddr_en0", "infiniband_sysfs",
                        "thunderbolt_sysfs", "python3_version", "mlx_version"})
    all.sections[s] = {std::string(in), 0};
  auto h = pr::build_host_info("fuzz", all);
  (void)h.management_address();
  return 0;
}
