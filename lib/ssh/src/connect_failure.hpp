// The internal exception a connection attempt throws; connect_all turns it
// into a HostError (kind + one-line message) for that host.
#pragma once

#include <stdexcept>
#include <string>

namespace distkit::ssh::detail {

struct ConnectFailure : std::runtime_error {
  ConnectFailure(std::string k, const std::string& message)
      : std::runtime_error(message), kind(std::move(k)) {}
  std::string kind;  // unreachable|auth|host-key|timeout|protocol|config
};

}  // namespace distkit::ssh::detail
