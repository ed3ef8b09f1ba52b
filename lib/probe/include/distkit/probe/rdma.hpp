// Parsing the RDMA state of a host: `ibv_devices`, `ibv_devinfo`,
// `rdma_ctl status` (macOS 26.2+) and the Linux /sys/class/infiniband
// listing printed by probes/linux.sh.
//
// SPEC §1: ibv_devices prints a header, a dashes line, then one
// `rdma_enX <GUID>` line per Thunderbolt port (cabled or not), unsorted;
// header only when RDMA is disabled. A TB4 Mac may say `enabled` and still
// list no devices.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace distkit::probe {

struct RdmaDevice {
  std::string name;  // "rdma_en2"
};
std::vector<RdmaDevice> parse_ibv_devices(std::string_view text);

struct RdmaPortState {
  std::string device;  // hca_id
  int port = 1;
  std::string state;  // "PORT_ACTIVE", "PORT_DOWN", ...
  bool active() const { return state == "PORT_ACTIVE"; }
};
std::vector<RdmaPortState> parse_ibv_devinfo(std::string_view text);

// `ibv_devinfo -v`: per device and port, the state and the GID table
// ("GID[  1]:  ::ffff:169.254.205.255", Apple TN3205). JACCL addresses a
// peer by an IPv4-mapped GID (::ffff:a.b.c.d); a port without one cannot be
// used (MLX #4191).
struct RdmaPortGids {
  RdmaPortState port;
  std::vector<std::string> gids;  // in table order
  // The IPv4 address of the first IPv4-mapped GID, "" when there is none.
  std::string ipv4_mapped() const;
};
std::vector<RdmaPortGids> parse_ibv_devinfo_verbose(std::string_view text);

enum class RdmaCtl { unknown, enabled, disabled };
RdmaCtl parse_rdma_ctl_status(std::string_view text);

// Linux: "<device>\t<port>\t<state>" lines, state as in
// /sys/class/infiniband/<dev>/ports/<n>/state ("4: ACTIVE").
std::vector<RdmaPortState> parse_linux_infiniband(std::string_view text);

}  // namespace distkit::probe
