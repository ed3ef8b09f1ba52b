// User authentication on a freshly handshaken libssh2 session, in the order
// OpenSSH users expect: ssh-agent identities first (unless IdentitiesOnly),
// then identity files (ssh_config's IdentityFile entries, else the default
// ~/.ssh/id_ed25519, id_ecdsa, id_rsa: ed25519 first). Keys with a
// passphrase are only usable through the agent.
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
