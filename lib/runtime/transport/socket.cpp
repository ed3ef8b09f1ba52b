// Portable socket helpers (see socket.hpp).
#include "transport/socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "distkit/util/posix.hpp"

namespace distkit::rt {

namespace {

constexpr size_t kMaxIo = size_t{1} << 30;  // macOS rejects > INT_MAX per call

void set_flags(int fd) {
  posix::set_cloexec_nonblock(fd);
#ifdef SO_NOSIGPIPE
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

// Out of file descriptors is not a peer that is late: retrying until the
// connect timeout only hid it for a minute, behind a remedy about running
// ranks, and a listener whose accept() fails stays readable, so the wait
// spun a core. It is one error, at once, with the remedy. (macOS shells
// start with a soft limit of 256; a rank needs one socket per peer and
// stripe.)
void check_fd_limit(const char* call, int err) {
  if (err == EMFILE || err == ENFILE)
    throw Error(ErrorCode::system, std::string(call) + ": " + std::strerror(err) +
                                       "; raise the open-file limit (ulimit -n), or use fewer "
                                       "ranks a host or stripes (DISTKIT_MAX_STRIPES)");
}

using AddrList = std::unique_ptr<addrinfo, decltype(&freeaddrinfo)>;

// The addresses of host:port (null with `why` set when it does not resolve).
AddrList resolve(const std::string& host, uint16_t port, bool passive, std::string& why) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  std::string service = std::to_string(port);
  addrinfo* head = nullptr;
  int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &head);
  if (rc != 0) why = std::string("cannot resolve ") + host + ": " + gai_strerror(rc);
  return AddrList(head, freeaddrinfo);
}

int wait_fd(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return 0;
    pollfd p{fd, events, 0};
    int rc = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (rc > 0) return 1;
    if (rc < 0 && errno != EINTR) return -1;
  }
}

// Moves n bytes by calling `step(offset, left)` (a recv or a send) until done,
// waiting when the socket would block. A read of 0 means the peer closed.
template <typename Step>
std::string move_exact(int fd, size_t n, bool reading, Clock::time_point deadline, Step step) {
  for (size_t off = 0; off < n;) {
    ssize_t done = step(off, n - off);
    if (done > 0) {
      off += static_cast<size_t>(done);
      continue;
    }
    if (done == 0 && reading) return "connection closed";
    if (done < 0 && errno == EINTR) continue;
    if (done < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return std::strerror(errno);
    int w = wait_fd(fd, reading ? POLLIN : POLLOUT, deadline);
    if (w == 0) return "timed out";
    if (w < 0) return std::strerror(errno);
  }
  return {};
}

}  // namespace

void close_fd(int fd) noexcept {
  if (fd >= 0) ::close(fd);
}

int listen_on(const Endpoint& ep) {
  std::string why;
  for (int attempt = 0; attempt < 2; ++attempt) {
    AddrList ai = resolve(attempt == 0 ? ep.host : std::string(), ep.port, true, why);
    if (!ai) continue;
    int fd = socket(ai->ai_family, SOCK_STREAM, 0);
    if (fd < 0) {
      check_fd_limit("socket", errno);
      throw Error(ErrorCode::system, std::string("socket: ") + std::strerror(errno));
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    set_flags(fd);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 128) == 0) return fd;
    int e = errno;
    close_fd(fd);
    why = "cannot listen on " + ep.host + ":" + std::to_string(ep.port) + ": " + std::strerror(e);
    if (e != EADDRNOTAVAIL) break;
  }
  throw Error(ErrorCode::config, why + "; free the port or change --starting-port");
}

int try_connect(const Endpoint& ep, Clock::time_point deadline, std::string& why) {
  AddrList ai = resolve(ep.host, ep.port, false, why);
  if (!ai) return -1;
  int fd = socket(ai->ai_family, SOCK_STREAM, 0);
  if (fd < 0) {
    check_fd_limit("socket", errno);
    why = std::string("socket: ") + std::strerror(errno);
    return -1;
  }
  set_flags(fd);
  if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
    why = std::strerror(errno);
    close_fd(fd);
    return -1;
  }
  int ready = wait_fd(fd, POLLOUT, deadline);
  int err = 0;
  socklen_t len = sizeof err;
  if (ready <= 0)
    err = ready == 0 ? ETIMEDOUT : errno;
  else
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err != 0) {
    why = std::strerror(err);
    close_fd(fd);
    return -1;
  }
  return fd;
}

int accept_one(int listener, std::string& peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  int fd = accept(listener, reinterpret_cast<sockaddr*>(&ss), &len);
  if (fd < 0) {
    check_fd_limit("accept", errno);
    return -1;
  }
  set_flags(fd);
  char host[NI_MAXHOST] = "?", serv[NI_MAXSERV] = "?";
  getnameinfo(reinterpret_cast<sockaddr*>(&ss), len, host, sizeof host, serv, sizeof serv,
              NI_NUMERICHOST | NI_NUMERICSERV);
  peer = std::string(host) + ":" + serv;
  return fd;
}

void tune_socket(int fd) {
  set_flags(fd);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
  [[maybe_unused]] int idle = 10, intvl = 5, cnt = 3;
#if defined(TCP_KEEPIDLE)
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
#elif defined(TCP_KEEPALIVE)
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPALIVE, &idle, sizeof idle);
#endif
#if defined(TCP_KEEPINTVL) && defined(TCP_KEEPCNT)
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
  setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
#endif
}

ssize_t send_vec(int fd, const struct iovec* iov, int n) {
  msghdr m{};
  m.msg_iov = const_cast<struct iovec*>(iov);
  m.msg_iovlen = n;
  int flags = 0;
#if defined(MSG_NOSIGNAL)
  flags |= MSG_NOSIGNAL;
#endif
  return sendmsg(fd, &m, flags);
}

ssize_t recv_some(int fd, void* buf, size_t n) {
  return recv(fd, buf, std::min(n, kMaxIo), 0);
}

std::string read_exact(int fd, void* buf, size_t n, Clock::time_point deadline) {
  auto* p = static_cast<unsigned char*>(buf);
  return move_exact(fd, n, true, deadline,
                    [&](size_t off, size_t left) { return recv_some(fd, p + off, left); });
}

std::string write_exact(int fd, const void* buf, size_t n, Clock::time_point deadline) {
  auto* p = static_cast<unsigned char*>(const_cast<void*>(buf));
  return move_exact(fd, n, false, deadline, [&](size_t off, size_t left) {
    iovec v{p + off, std::min(left, kMaxIo)};
    return send_vec(fd, &v, 1);
  });
}

}  // namespace distkit::rt
