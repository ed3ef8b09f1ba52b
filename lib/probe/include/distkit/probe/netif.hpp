// Parsing interface addresses and routes: `ifconfig` (macOS and Linux
// net-tools layouts), Linux `ip -o addr`, and "which interface routes to the
// launcher" from macOS `route -n get <ip>` or Linux `ip route get <ip>`.
// Used to pick each host's management address (the one on the interface
// that routes to the launcher, not blindly en0) and bridge0's membership.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::probe {

struct Interface {
  std::string name;
  std::vector<std::string> ipv4;
  std::vector<std::string> members;  // bridge members (ifconfig bridgeX)
  std::string status;                // "active" / "inactive" when printed
};

// `ifconfig` / `ifconfig -a` / `ifconfig bridge0`, macOS or Linux layout.
std::vector<Interface> parse_ifconfig(std::string_view text);
// An interface's first ifconfig line, in column 0: "en2: flags=...".
bool is_ifconfig_header(std::string_view line);

// Linux `ip -o addr show` (one line per address).
std::vector<Interface> parse_ip_addr(std::string_view text);

struct Route {
  std::string interface;  // the outgoing interface
  std::string source;     // the source address, when the tool prints it
};

// macOS `route -n get` ("interface: en0") or Linux `ip route get`
// ("... dev eth0 src 10.0.0.2 ..."). nullopt when neither is recognised.
std::optional<Route> parse_route_get(std::string_view text);

// The interface named `name`, if present.
const Interface* find_interface(const std::vector<Interface>& ifs, std::string_view name);

}  // namespace distkit::probe
