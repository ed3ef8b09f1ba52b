// Port check for the preflight (see ports.hpp).
#include "ports.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace distlaunch_rank {

namespace {

bool taken(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;  // cannot tell: the rank's own bind will say
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  bool busy = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0;
  close(fd);
  return busy;
}

}  // namespace

int check_ports(int argc, char** argv) {
  std::string busy;
  for (int i = 0; i < argc; ++i) {
    char* end = nullptr;
    errno = 0;
    long port = std::strtol(argv[i], &end, 10);
    if (errno || end == argv[i] || *end || port < 1 || port > 65535) {
      std::fprintf(stderr, "distlaunch-rank: --check-ports: '%s' is not a port (1-65535)\n",
                   argv[i]);
      return 2;
    }
    if (taken(static_cast<int>(port))) busy += (busy.empty() ? "" : " ") + std::string(argv[i]);
  }
  if (!busy.empty()) std::printf("busy=%s\n", busy.c_str());
  return 0;
}

}  // namespace distlaunch_rank
