// See probe_files.hpp.
#include "distkit/probe/probe_files.hpp"

#include <system_error>

#include "distkit/util/atomic_file.hpp"

namespace distkit::probe {

namespace fs = std::filesystem;

namespace {

std::string safe_name(std::string host) {
  for (char& c : host)
    if (c == '/' || c == '\0') c = '_';
  return host;
}

constexpr const char* kSections[] = {"uname",
                                     "hostname",
                                     "hw_model",
                                     "sw_vers",
                                     "os_release",
                                     "system_profiler_SPThunderboltDataType",
                                     "networksetup_listallhardwareports",
                                     "ibv_devices",
                                     "ibv_devinfo",
                                     "rdma_ctl_status",
                                     "ifconfig",
                                     "ifconfig_bridge0",
                                     "ip_addr",
                                     "route_to_launcher",
                                     "ssh_connection",
                                     "ipconfig_getifaddr_en0",
                                     "ipconfig_getifaddr_en1",
                                     "sudo",
                                     "python3_version",
                                     "mlx_version",
                                     "thunderbolt_sysfs",
                                     "infiniband_sysfs"};

// DIR/<host>.probe ('/' in the host name becomes '_').
fs::path capture_path(const fs::path& dir, const std::string& host) {
  return dir / (safe_name(host) + ".probe");
}

}  // namespace

void save_capture(const fs::path& dir, const std::string& host, const std::string& raw) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  write_file_atomic(capture_path(dir, host), raw);
}

std::optional<Capture> load_capture(const fs::path& dir, const std::string& host) {
  std::error_code ec;
  fs::path whole = capture_path(dir, host);
  if (fs::is_regular_file(whole, ec)) return parse_capture(read_file(whole), whole.string());
  Capture c;
  c.boundary = "from-files";
  for (const char* section : kSections) {
    for (const char* ext : {".txt", ".json"}) {
      fs::path f = dir / (safe_name(host) + "." + section + ext);
      if (!fs::is_regular_file(f, ec)) continue;
      c.sections[section] = {read_file(f), 0};
      break;
    }
  }
  if (c.sections.empty()) return std::nullopt;
  return c;
}

}  // namespace distkit::probe
