// Sending the ACK the kernel is holding back before we wait for the server.
//
// Why: until its first command runs, OpenSSH's sshd leaves Nagle on. After
// authentication it sends two small packets back to back, and the second
// (say, the channel-open confirmation) waits in its kernel for the ACK of
// the first, while our kernel delays that ACK (40 ms on Linux) because we
// have nothing to send: every new connection stalled ~40 ms before its first
// command (seen with strace on both ends). TCP_QUICKACK sends a pending ACK
// at once. Only Linux has it; elsewhere this does nothing (macOS's delayed
// ACK behaviour here was not measured: no Mac to measure it on).
#pragma once

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace distkit::ssh::detail {

inline void ack_now(int fd) {
#ifdef TCP_QUICKACK
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#else
  (void)fd;
#endif
}

}  // namespace distkit::ssh::detail
