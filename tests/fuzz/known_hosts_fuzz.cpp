// Fuzzes reading known_hosts text (plain, hashed |1|salt|hash, [host]:port,
// markers, comments) through distkit's line splitter into libssh2's
// known-host store, and choosing host-key methods from it. Checked besides
// "no crash, no sanitizer report": the method preference always lists every
// supported algorithm exactly once. libssh2 itself is the system library,
// not instrumented: libFuzzer's coverage sees distkit's code only, while
// ASan still checks the memory libssh2 is handed and its libc calls.
#include <libssh2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "distkit/util/strings.hpp"
#include "fuzz_check.hpp"
#include "host_keys.hpp"

using distkit::fuzz::require;

namespace {

struct Library {
  Library() { libssh2_init(0); }
  LIBSSH2_SESSION* session = libssh2_session_init();
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Library lib;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  distkit::ssh::detail::KnownHosts kh(lib.session, {});
  kh.add_lines(text);
  for (const auto& [host, port] : {std::pair<const char*, int>{"a", 22},
                                   {"10.0.0.1", 22},
                                   {"10.0.0.1", 2222},
                                   {"host1", 22},
                                   {"gpu3.lan", 2201}}) {
    std::string methods = kh.method_preference(host, port);
    auto list = distkit::split(methods, ',');
    require(list.size() == 7);  // 5 key types, RSA with three signature algorithms
    for (const char* m : {"ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
                          "ecdsa-sha2-nistp521", "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"})
      require(std::count(list.begin(), list.end(), m) == 1);
  }
  return 0;
}
