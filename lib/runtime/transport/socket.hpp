// Thin, portable wrappers over BSD sockets for the TCP transport: non-blocking
// descriptors driven by poll() (no epoll/accept4/SOCK_CLOEXEC, so the same
// code runs on macOS), SIGPIPE suppressed per socket or per call, kernel
// buffer autotuning left alone (SPEC §8: sizing buffers from the first
// message stalls large transfers).
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <chrono>
#include <string>

#include "distkit/runtime/config.hpp"

namespace distkit::rt {

using Clock = std::chrono::steady_clock;

// Listens on ep (falls back to the wildcard address of the same family when
// ep.host is not local, e.g. a NAT'd or namespaced address). Throws Error.
int listen_on(const Endpoint& ep);

// One non-blocking connect attempt bounded by `deadline`. Returns the fd, or
// -1 with `why` set (peer not listening yet, unreachable, ...). Out of file
// descriptors throws (ErrorCode::system, naming the limit), as accept_one
// and listen_on do: waiting would not help.
int try_connect(const Endpoint& ep, Clock::time_point deadline, std::string& why);

// Accepts one pending connection (non-blocking listener); -1 when none.
int accept_one(int listener, std::string& peer);

// Data-socket options: non-blocking, close-on-exec, TCP_NODELAY, keep-alive
// (TCP_KEEPIDLE or macOS TCP_KEEPALIVE), SO_NOSIGPIPE where it exists.
void tune_socket(int fd);

// sendmsg/recv that never raise SIGPIPE; return -1/errno like the originals.
ssize_t send_vec(int fd, const struct iovec* iov, int n);
ssize_t recv_some(int fd, void* buf, size_t n);

// Blocking-style exact read/write over a non-blocking fd, for handshakes.
// Returns an empty string on success, else the problem.
std::string read_exact(int fd, void* buf, size_t n, Clock::time_point deadline);
std::string write_exact(int fd, const void* buf, size_t n, Clock::time_point deadline);

void close_fd(int fd) noexcept;

}  // namespace distkit::rt
