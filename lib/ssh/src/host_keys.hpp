// Host-key verification against OpenSSH known_hosts files, through the
// libssh2_knownhost API (which understands hashed `|1|salt|hash` entries
// and the `[host]:port` form). Also picks which host-key algorithms to ask
// the server for, from the key types known_hosts holds for that host
// (libssh2 would otherwise negotiate a type we cannot verify; SPEC §6).
#pragma once

#include <libssh2.h>

#include <string>
#include <string_view>
#include <vector>

namespace distkit::ssh::detail {

class KnownHosts {
 public:
  // Loads every readable line of `files` (missing files are fine; lines
  // libssh2 cannot parse, e.g. @cert-authority, are skipped).
  KnownHosts(LIBSSH2_SESSION* s, const std::vector<std::string>& files);
  // Adds the lines of one known_hosts text, with the same skipping rules
  // (what the constructor does per file; fuzzed by tests/fuzz).
  void add_lines(std::string_view text);
  ~KnownHosts();
  KnownHosts(const KnownHosts&) = delete;
  KnownHosts& operator=(const KnownHosts&) = delete;

  // "ssh-ed25519,..." with the types known for host:port first, then the
  // other types libssh2 supports.
  std::string method_preference(const std::string& host, int port) const;

  // After the handshake: accepts a known key; throws ConnectFailure
  // "host-key" for a changed key (always) or an unknown one (unless
  // `strict` is "no" or "accept-new"; accept-new appends the key).
  void verify(LIBSSH2_SESSION* s, const std::string& alias, const std::string& host, int port,
              const std::string& strict);

 private:
  LIBSSH2_KNOWNHOSTS* kh_ = nullptr;
  std::string first_file_;  // receives accepted keys ("" when no file was given)
};

// Standard base64 (with padding).
std::string base64_encode(const unsigned char* data, size_t len);

}  // namespace distkit::ssh::detail
