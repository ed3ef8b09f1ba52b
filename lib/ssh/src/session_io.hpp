// Driving a non-blocking libssh2 session synchronously until a deadline:
// used while connecting (TCP connect, handshake, host key, authentication),
// before the session's I/O thread takes over; and ack_now(), which that
// thread uses too.
#pragma once

#include <libssh2.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>

namespace distkit::ssh::detail {

// Sends the ACK the kernel is holding back before we wait for the server.
// Why: until its first command runs, OpenSSH's sshd leaves Nagle on. After
// authentication it sends two small packets back to back, and the second
// (say, the channel-open confirmation) waits in its kernel for the ACK of
// the first, while our kernel delays that ACK (40 ms on Linux) because we
// have nothing to send: every new connection stalled ~40 ms before its first
// command (seen with strace on both ends). TCP_QUICKACK sends a pending ACK
// at once. Only Linux has it; elsewhere this does nothing (macOS's delayed
// ACK behaviour here was not measured: no Mac to measure it on).
inline void ack_now([[maybe_unused]] int fd) {
#ifdef TCP_QUICKACK
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
#endif
}

using Clock = std::chrono::steady_clock;

// poll() on `fd` for `events` until the deadline, again after EINTR: > 0
// when ready, 0 when the deadline passed first, < 0 when poll failed.
inline int poll_until(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return 0;
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, static_cast<int>(left.count()));
    if (n >= 0 || errno != EINTR) return n;
  }
}

// Waits until the socket is ready in the direction libssh2 is blocked on.
// Returns false when the deadline passed first.
inline bool wait_socket(LIBSSH2_SESSION* s, int sock, Clock::time_point deadline) {
  int dirs = libssh2_session_block_directions(s);
  short events = 0;
  if (dirs & LIBSSH2_SESSION_BLOCK_INBOUND) events |= POLLIN;
  if (dirs & LIBSSH2_SESSION_BLOCK_OUTBOUND) events |= POLLOUT;
  if (events == 0) events = POLLIN;
  if (events & POLLIN) ack_now(sock);
  return poll_until(sock, events, deadline) > 0;
}

// Calls `op` until it stops returning LIBSSH2_ERROR_EAGAIN; returns its
// result, or LIBSSH2_ERROR_TIMEOUT at the deadline.
template <class Op>
auto retry_until(LIBSSH2_SESSION* s, int sock, Clock::time_point deadline, Op op) {
  for (;;) {
    auto rc = op();
    if (rc != LIBSSH2_ERROR_EAGAIN) return rc;
    if (!wait_socket(s, sock, deadline)) return decltype(rc)(LIBSSH2_ERROR_TIMEOUT);
  }
}

// The last libssh2 error message of a session.
inline std::string last_error(LIBSSH2_SESSION* s) {
  char* msg = nullptr;
  libssh2_session_last_error(s, &msg, nullptr, 0);
  return msg ? msg : "unknown libssh2 error";
}

}  // namespace distkit::ssh::detail
