// Is a TCP port already taken here? Bound once, as a rank will bind it
// (any address, SO_REUSEADDR, so a port in TIME_WAIT counts as free).
// Header-only and libc-only: distlaunch's preflight for this machine and
// distkit-agent's `--check-ports` on the hosts (which links no distkit
// library) ask the same question the same way.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

namespace distkit {

// False when no socket can be made: the rank's own bind will say.
inline bool port_in_use(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
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

}  // namespace distkit
