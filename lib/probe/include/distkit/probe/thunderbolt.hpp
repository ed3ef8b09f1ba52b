// Parsing what a host says about its Thunderbolt ports: macOS
// `system_profiler SPThunderboltDataType -json` and the Linux
// /sys/bus/thunderbolt listing printed by probes/linux.sh.
//
// Facts this relies on (SPEC §1): one top-level element per bus (port), its
// `domain_uuid_key` identifies that port; a peer Mac in `_items` carries the
// `domain_uuid_key` of the peer's port at the other end of the cable; docks
// and hubs nest the peer deeper (`_items[k]._items[m]`); drives and docks
// have no `domain_uuid_key`; a bus without `domain_uuid_key` is skipped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::probe {

// A Mac seen at the other end of a cable (possibly behind a dock or hub).
struct TbPeer {
  std::string domain_uuid;  // the peer's port UUID
};

struct TbPort {
  std::string domain_uuid;  // this port's UUID
  std::string receptacle;   // receptacle_id_key, "1".."6"
  std::string speed;        // current_speed_key, e.g. "80 Gb/s"
  // receptacle_status_key == receptacle_connected, or anything in `_items`
  // (a Mac, a drive, a dock).
  bool connected = false;
  std::vector<TbPeer> peers;

  // Linked speed in Gb/s ("80 Gb/s" -> 80), 0 when idle ("Up to ...").
  int linked_gbps() const;
  // Highest speed the port can do ("Up to 120 Gb/s" -> 120, "80 Gb/s" -> 80).
  int max_gbps() const;
};

struct TbReport {
  std::string machine_name;   // this Mac's device_name_key
  std::vector<TbPort> ports;  // buses with a domain_uuid_key, in order
  std::string error;          // non-empty: the JSON could not be used
};

// Never throws; invalid input gives a report with `error` set.
TbReport parse_system_profiler_thunderbolt(std::string_view json_text);

// One /sys/bus/thunderbolt/devices entry as listed by probes/linux.sh:
// tab-separated "<entry>\t<unique_id>\t<device_name>\t<vendor_name>" lines.
struct LinuxTbDevice {
  std::string entry, unique_id, device_name, vendor_name;
};
std::vector<LinuxTbDevice> parse_linux_thunderbolt(std::string_view text);

}  // namespace distkit::probe
