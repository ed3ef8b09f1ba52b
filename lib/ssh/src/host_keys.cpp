// known_hosts checks (see host_keys.hpp).
#include "host_keys.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string_view>

#include "connect_failure.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::ssh::detail {
namespace {

struct KeyType {
  int knownhost_mask;   // LIBSSH2_KNOWNHOST_KEY_*
  int hostkey_type;     // LIBSSH2_HOSTKEY_TYPE_*
  const char* name;     // as in known_hosts and messages
  const char* methods;  // host-key algorithms that produce this key type
};

constexpr KeyType kTypes[] = {
    {LIBSSH2_KNOWNHOST_KEY_ED25519, LIBSSH2_HOSTKEY_TYPE_ED25519, "ssh-ed25519", "ssh-ed25519"},
    {LIBSSH2_KNOWNHOST_KEY_ECDSA_256, LIBSSH2_HOSTKEY_TYPE_ECDSA_256, "ecdsa-sha2-nistp256",
     "ecdsa-sha2-nistp256"},
    {LIBSSH2_KNOWNHOST_KEY_ECDSA_384, LIBSSH2_HOSTKEY_TYPE_ECDSA_384, "ecdsa-sha2-nistp384",
     "ecdsa-sha2-nistp384"},
    {LIBSSH2_KNOWNHOST_KEY_ECDSA_521, LIBSSH2_HOSTKEY_TYPE_ECDSA_521, "ecdsa-sha2-nistp521",
     "ecdsa-sha2-nistp521"},
    {LIBSSH2_KNOWNHOST_KEY_SSHRSA, LIBSSH2_HOSTKEY_TYPE_RSA, "ssh-rsa",
     "rsa-sha2-512,rsa-sha2-256,ssh-rsa"},
};

std::mutex g_append_mutex;  // one writer per known_hosts file in this process

// OpenSSH-style fingerprint of the session's host key: "SHA256:<base64>"
// without padding.
std::string host_key_fingerprint(LIBSSH2_SESSION* s) {
  const char* hash = libssh2_hostkey_hash(s, LIBSSH2_HOSTKEY_HASH_SHA256);
  if (!hash) return "SHA256:?";
  std::string b64 = base64_encode(reinterpret_cast<const unsigned char*>(hash), 32);
  while (!b64.empty() && b64.back() == '=') b64.pop_back();
  return "SHA256:" + b64;
}

}  // namespace

std::string base64_encode(const unsigned char* data, size_t len) {
  static const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < len; i += 3) {
    unsigned v = data[i] << 16;
    if (i + 1 < len) v |= data[i + 1] << 8;
    if (i + 2 < len) v |= data[i + 2];
    out += abc[(v >> 18) & 63];
    out += abc[(v >> 12) & 63];
    out += i + 1 < len ? abc[(v >> 6) & 63] : '=';
    out += i + 2 < len ? abc[v & 63] : '=';
  }
  return out;
}

KnownHosts::KnownHosts(LIBSSH2_SESSION* s, const std::vector<std::string>& files)
    : kh_(libssh2_knownhost_init(s)), first_file_(files.empty() ? "" : files.front()) {
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    add_lines(std::string(std::istreambuf_iterator<char>(in), {}));
  }
}

void KnownHosts::add_lines(std::string_view text) {
  if (!kh_) return;
  for (std::string line : split(text, '\n')) {
    if (line.empty() || line[0] == '#' || line[0] == '@') continue;
    line += '\n';
    libssh2_knownhost_readline(kh_, line.c_str(), line.size(), LIBSSH2_KNOWNHOST_FILE_OPENSSH);
  }
}

KnownHosts::~KnownHosts() {
  if (kh_) libssh2_knownhost_free(kh_);
}

std::string KnownHosts::method_preference(const std::string& host, int port) const {
  std::string known, rest;
  const char dummy[] = "x";  // never equals a real key: a known type reports MISMATCH
  for (const auto& t : kTypes) {
    int rc = libssh2_knownhost_checkp(
        kh_, host.c_str(), port, dummy, 1,
        LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW | t.knownhost_mask, nullptr);
    std::string& into = rc == LIBSSH2_KNOWNHOST_CHECK_MISMATCH ? known : rest;
    into += (into.empty() ? "" : ",") + std::string(t.methods);
  }
  return known.empty() ? rest : known + "," + rest;
}

void KnownHosts::verify(LIBSSH2_SESSION* s, const std::string& alias, const std::string& host,
                        int port, const std::string& strict) {
  size_t len = 0;
  int type = 0;
  const char* key = libssh2_session_hostkey(s, &len, &type);
  const KeyType* kt = std::find_if(std::begin(kTypes), std::end(kTypes),
                                   [type](const KeyType& t) { return t.hostkey_type == type; });
  if (!key || kt == std::end(kTypes))
    throw ConnectFailure("host-key", alias +
                                         ": the server offered no usable host key; "
                                         "check its sshd HostKey settings");
  std::string fp = host_key_fingerprint(s);
  // host:port as known_hosts names it
  const std::string stored = port == 22 ? host : "[" + host + "]:" + std::to_string(port);
  int mask = LIBSSH2_KNOWNHOST_TYPE_PLAIN | LIBSSH2_KNOWNHOST_KEYENC_RAW | kt->knownhost_mask;
  std::string where = first_file_.empty() ? "known_hosts" : first_file_;
  std::vector<std::string> names{host};
  if (alias != host) names.push_back(alias);
  for (const auto& name : names) {
    int rc = libssh2_knownhost_checkp(kh_, name.c_str(), port, key, len, mask, nullptr);
    if (rc == LIBSSH2_KNOWNHOST_CHECK_MATCH) return;
    if (rc == LIBSSH2_KNOWNHOST_CHECK_MISMATCH)
      throw ConnectFailure(
          "host-key", alias + ": host key changed: " + stored + " now offers " + kt->name + " " +
                          fp + ", which does not match " + where +
                          "; if the host was reinstalled, remove the old entry (ssh-keygen -R " +
                          stored + " -f " + where + ") and reconnect");
  }
  if (strict == "no") return;
  if (strict != "accept-new")
    throw ConnectFailure("host-key", alias + ": unknown host key " + kt->name + " " + fp + " for " +
                                         stored + " (not in " + where +
                                         "); verify it, then add it with ssh-keyscan or opt in "
                                         "to accepting new host keys");
  libssh2_knownhost* entry = nullptr;
  if (libssh2_knownhost_addc(kh_, stored.c_str(), nullptr, key, len, nullptr, 0, mask, &entry) != 0)
    return;
  char line[8192];
  size_t out = 0;
  if (first_file_.empty() || libssh2_knownhost_writeline(kh_, entry, line, sizeof line, &out,
                                                         LIBSSH2_KNOWNHOST_FILE_OPENSSH) != 0)
    return;
  std::lock_guard lock(g_append_mutex);
  std::ofstream f(first_file_, std::ios::app);
  f.write(line, static_cast<std::streamsize>(out));
}

}  // namespace distkit::ssh::detail
