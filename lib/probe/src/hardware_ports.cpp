// See hardware_ports.hpp.
#include "distkit/probe/hardware_ports.hpp"

#include "distkit/util/strings.hpp"

namespace distkit::probe {

std::vector<HardwarePort> parse_hardware_ports(std::string_view text) {
  std::vector<HardwarePort> out;
  for (std::string_view raw : split_lines(text)) {
    std::string_view line = trim(raw);
    if (line.starts_with("Hardware Port:")) {
      out.push_back({std::string(trim(line.substr(14))), {}});
    } else if (line.starts_with("Device:") && !out.empty() && out.back().device.empty()) {
      out.back().device = std::string(trim(line.substr(7)));
    } else if (line.starts_with("VLAN Configurations")) {
      break;
    }
  }
  return out;
}

std::optional<std::string> thunderbolt_interface(const std::vector<HardwarePort>& ports,
                                                 std::string_view receptacle) {
  if (receptacle.empty()) return std::nullopt;
  std::string want = "Thunderbolt " + std::string(receptacle);
  for (const auto& p : ports)
    if (p.name == want && !p.device.empty()) return p.device;
  return std::nullopt;
}

}  // namespace distkit::probe
