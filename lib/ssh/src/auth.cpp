// Agent and key-file authentication (see auth.hpp).
#include "auth.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "connect_failure.hpp"
#include "distkit/util/strings.hpp"
#include "session_io.hpp"

namespace distkit::ssh::detail {
namespace {

struct Attempt {
  LIBSSH2_SESSION* s;
  int sock;
  Clock::time_point deadline;
  const std::string& alias;
  const std::string& user;
  std::vector<std::string> tried;

  void check_deadline(int rc) {
    if (rc == LIBSSH2_ERROR_TIMEOUT)
      throw ConnectFailure("timeout", alias +
                                          ": authentication did not finish before the "
                                          "connect timeout; check the host's load and sshd");
  }
};

bool try_agent(Attempt& a) {
  const char* sock_path = std::getenv("SSH_AUTH_SOCK");
  if (!sock_path || !*sock_path) {
    a.tried.push_back("ssh-agent (SSH_AUTH_SOCK not set)");
    return false;
  }
  LIBSSH2_AGENT* agent = libssh2_agent_init(a.s);
  if (!agent) return false;
  bool ok = false;
  int keys = 0;
  if (libssh2_agent_connect(agent) == 0 && libssh2_agent_list_identities(agent) == 0) {
    libssh2_agent_publickey* prev = nullptr;
    libssh2_agent_publickey* id = nullptr;
    while (!ok && libssh2_agent_get_identity(agent, &id, prev) == 0) {
      ++keys;
      int rc = retry_until(a.s, a.sock, a.deadline,
                           [&] { return libssh2_agent_userauth(agent, a.user.c_str(), id); });
      a.check_deadline(rc);
      ok = rc == 0;
      prev = id;
    }
    a.tried.push_back("ssh-agent (" + std::to_string(keys) + (keys == 1 ? " key)" : " keys)"));
  } else {
    a.tried.push_back("ssh-agent (cannot connect to " + std::string(sock_path) + ")");
  }
  libssh2_agent_disconnect(agent);
  libssh2_agent_free(agent);
  return ok;
}

bool try_file(Attempt& a, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    a.tried.push_back(path + " (missing)");
    return false;
  }
  int rc = retry_until(a.s, a.sock, a.deadline, [&] {
    return libssh2_userauth_publickey_fromfile_ex(
        a.s, a.user.c_str(), static_cast<unsigned>(a.user.size()), nullptr, path.c_str(), "");
  });
  a.check_deadline(rc);
  if (rc == 0) return true;
  a.tried.push_back(
      path + (rc == LIBSSH2_ERROR_FILE ? " (unreadable or has a passphrase)" : " (refused)"));
  return false;
}

}  // namespace

void authenticate(LIBSSH2_SESSION* s, int sock, const HostConfig& cfg, const std::string& user,
                  Clock::time_point deadline) {
  Attempt a{s, sock, deadline, cfg.alias, user, {}};
  char* methods = nullptr;
  for (;;) {
    methods = libssh2_userauth_list(s, user.c_str(), static_cast<unsigned>(user.size()));
    if (methods || libssh2_session_last_errno(s) != LIBSSH2_ERROR_EAGAIN) break;
    if (!wait_socket(s, sock, deadline)) a.check_deadline(LIBSSH2_ERROR_TIMEOUT);
  }
  if (!methods && libssh2_userauth_authenticated(s)) return;  // "none" accepted
  std::string offered = methods ? methods : "";
  if (offered.find("publickey") == std::string::npos)
    throw ConnectFailure("auth", cfg.alias + ": the server does not accept public keys for " +
                                     user + " (it offers: " + offered +
                                     "); enable PubkeyAuthentication in its sshd_config");
  if (!cfg.identities_only && try_agent(a)) return;
  for (const auto& f : cfg.identity_files)
    if (try_file(a, f)) return;
  throw ConnectFailure("auth", cfg.alias + ": authentication as " + user +
                                   " failed (tried: " + join(a.tried, ", ") +
                                   "); add your public key to the host's "
                                   "~/.ssh/authorized_keys or load it into ssh-agent");
}

}  // namespace distkit::ssh::detail
