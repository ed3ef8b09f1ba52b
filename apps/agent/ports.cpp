// Port check for the preflight (see ports.hpp).
#include "ports.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "distkit/util/port_in_use.hpp"  // header-only, libc only

namespace distkit_agent {

int check_ports(int argc, char** argv) {
  std::string busy;
  for (int i = 0; i < argc; ++i) {
    char* end = nullptr;
    errno = 0;
    long port = std::strtol(argv[i], &end, 10);
    if (errno || end == argv[i] || *end || port < 1 || port > 65535) {
      std::fprintf(stderr, "distkit-agent: --check-ports: '%s' is not a port (1-65535)\n", argv[i]);
      return 2;
    }
    if (!distkit::port_in_use(static_cast<int>(port))) continue;
    if (!busy.empty()) busy += ' ';
    busy += argv[i];
  }
  if (!busy.empty()) std::printf("busy=%s\n", busy.c_str());
  return 0;
}

}  // namespace distkit_agent
