// libFuzzer entry for the probe capture format (its section splitter) and
// the host info built from a capture; the input also serves as the output
// of every command of one host. Checked besides "no crash, no sanitizer
// report": parse_capture either returns or throws RemoteError (nothing else
// escapes); a parsed capture survives render -> parse; build_host_info never
// throws. (Each command's parser has its own target: probe_commands_fuzz.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "distkit/probe/capture.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/util/error.hpp"
#include "fuzz_check.hpp"
#include "render_capture.hpp"

namespace pr = distkit::probe;

using distkit::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  try {
    pr::Capture c = pr::parse_capture(in, "fuzz");
    pr::Capture back = pr::parse_capture(pr::test::render_capture(c), "fuzz");
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
  for (const char* s :
       {"uname", "sw_vers", "system_profiler_SPThunderboltDataType",
        "networksetup_listallhardwareports", "ibv_devices", "ibv_devinfo", "rdma_ctl_status",
        "ifconfig", "ip_addr", "route_to_launcher", "ssh_connection", "ipconfig_getifaddr_en0",
        "infiniband_sysfs", "thunderbolt_sysfs", "python3_version", "mlx_version"})
    all.sections[s] = {std::string(in), 0};
  auto h = pr::build_host_info("fuzz", all);
  (void)h.management_address();
  return 0;
}
