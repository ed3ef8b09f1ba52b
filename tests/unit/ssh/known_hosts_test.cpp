// known_hosts reading through libssh2: which host-key algorithms to ask a
// server for, from plain, hashed and [host]:port entries (tests/data/ssh).
#include <libssh2.h>

#include "catch.hpp"
#include "host_keys.hpp"
#include "test_data.hpp"

using distkit::ssh::detail::base64_encode;
using distkit::ssh::detail::KnownHosts;

namespace {

const char* kAll =
    "ssh-ed25519,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,rsa-sha2-512,"
    "rsa-sha2-256,ssh-rsa";

struct Session {
  Session() {
    libssh2_init(0);
    s = libssh2_session_init();
  }
  ~Session() { libssh2_session_free(s); }
  LIBSSH2_SESSION* s;
};

std::string prefs(const std::string& file, const std::string& host, int port) {
  Session session;
  KnownHosts kh(session.s, {(distkit::test::data_dir() / "ssh" / file).string()});
  return kh.method_preference(host, port);
}

}  // namespace

TEST_CASE("a host known by ed25519 and RSA keys asks for those, ed25519 first") {
  const std::string expected =
      "ssh-ed25519,rsa-sha2-512,rsa-sha2-256,ssh-rsa,ecdsa-sha2-nistp256,ecdsa-sha2-nistp384,"
      "ecdsa-sha2-nistp521";
  for (const char* file : {"known_hosts", "known_hosts_hashed"}) {
    CHECK(prefs(file, "studio1", 22) == expected);
    CHECK(prefs(file, "10.0.0.11", 22) == expected);
  }
}

TEST_CASE("a host known only by ECDSA or RSA asks for that type first") {
  for (const char* file : {"known_hosts", "known_hosts_hashed"}) {
    CHECK(prefs(file, "mini", 2222) ==
          std::string("ecdsa-sha2-nistp256,ssh-ed25519,ecdsa-sha2-nistp384,ecdsa-sha2-nistp521,"
                      "rsa-sha2-512,rsa-sha2-256,ssh-rsa"));
    CHECK(prefs(file, "old-box", 22) ==
          std::string("rsa-sha2-512,rsa-sha2-256,ssh-rsa,ssh-ed25519,ecdsa-sha2-nistp256,"
                      "ecdsa-sha2-nistp384,ecdsa-sha2-nistp521"));
  }
}

TEST_CASE("a [host]:port entry does not apply to another port, unknown hosts get every type") {
  CHECK(prefs("known_hosts", "mini", 22) == kAll);
  CHECK(prefs("known_hosts", "stranger", 22) == kAll);
  CHECK(prefs("no_such_known_hosts_file", "studio1", 22) == kAll);
}

TEST_CASE("base64 encodes like RFC 4648") {
  auto b64 = [](const std::string& s) {
    return base64_encode(reinterpret_cast<const unsigned char*>(s.data()), s.size());
  };
  CHECK(b64("") == "");
  CHECK(b64("f") == "Zg==");
  CHECK(b64("fo") == "Zm8=");
  CHECK(b64("foo") == "Zm9v");
  CHECK(b64("foobar") == "Zm9vYmFy");
}
