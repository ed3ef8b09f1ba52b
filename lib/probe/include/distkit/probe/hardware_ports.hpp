// Parsing `networksetup -listallhardwareports` (macOS): which BSD interface
// (enX) carries IP for each Thunderbolt receptacle. SPEC §1: enX cannot be
// computed from the receptacle number, listings can have gaps, and the
// Thunderbolt Bridge (bridge0) may be absent.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::probe {

struct HardwarePort {
  std::string name;    // "Thunderbolt 1", "Wi-Fi", "Thunderbolt Bridge"
  std::string device;  // "en2", "bridge0"
};

// Never throws; lines that do not fit the format are ignored.
std::vector<HardwarePort> parse_hardware_ports(std::string_view text);

// The device of port "Thunderbolt <receptacle>", if listed.
std::optional<std::string> thunderbolt_interface(const std::vector<HardwarePort>& ports,
                                                 std::string_view receptacle);

}  // namespace distkit::probe
