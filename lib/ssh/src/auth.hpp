// User authentication on a freshly handshaken libssh2 session, in the order
// OpenSSH users expect: ssh-agent identities first (unless IdentitiesOnly),
// then cfg.identity_files (ssh_config's IdentityFile entries; connect_all
// puts the defaults there when there are none). Keys with a passphrase are
// only usable through the agent.
#pragma once

#include <libssh2.h>

#include <chrono>
#include <string>

#include "distkit/ssh/ssh_config.hpp"

namespace distkit::ssh::detail {

// Throws ConnectFailure "auth" listing every method tried, or "timeout".
void authenticate(LIBSSH2_SESSION* s, int sock, const HostConfig& cfg, const std::string& user,
                  std::chrono::steady_clock::time_point deadline);

}  // namespace distkit::ssh::detail
