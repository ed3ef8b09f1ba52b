// TCP connect with a deadline (see tcp_connect.hpp).
#include "tcp_connect.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "connect_failure.hpp"
#include "distkit/util/posix.hpp"
#include "session_io.hpp"

namespace distkit::ssh::detail {

using namespace distkit::posix;  // set_cloexec_nonblock
namespace {

std::string numeric_host(const sockaddr* sa, socklen_t len) {
  char buf[NI_MAXHOST] = {};
  getnameinfo(sa, len, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST);
  return buf;
}

void tune_socket(int fd) {
  set_cloexec_nonblock(fd);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
  setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
}

// 0 connected, else errno; ETIMEDOUT when the deadline passed.
int try_connect(int fd, const addrinfo* ai, Clock::time_point deadline) {
  if (::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) return 0;
  if (errno != EINPROGRESS) return errno;
  if (poll_until(fd, POLLOUT, deadline) == 0) return ETIMEDOUT;
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
  return err;
}

}  // namespace

int tcp_connect(const std::string& alias, const std::string& host_name, int port,
                Clock::time_point deadline, std::chrono::milliseconds timeout_for_message) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  std::string port_text = std::to_string(port);
  int rc = getaddrinfo(host_name.c_str(), port_text.c_str(), &hints, &list);
  if (rc != 0)
    throw ConnectFailure("unreachable", alias + ": cannot resolve " + host_name + ": " +
                                            gai_strerror(rc) +
                                            "; check the name or set HostName in ssh_config");
  std::string last_addr = host_name;
  int last_err = 0;
  for (addrinfo* ai = list; ai; ai = ai->ai_next) {
    last_addr = numeric_host(ai->ai_addr, ai->ai_addrlen);
    int fd = ::socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd < 0) {
      last_err = errno;
      continue;
    }
    tune_socket(fd);
    last_err = try_connect(fd, ai, deadline);
    if (last_err == 0) {
      freeaddrinfo(list);
      return fd;
    }
    ::close(fd);
    if (last_err == ETIMEDOUT) break;
  }
  freeaddrinfo(list);
  if (last_err == ETIMEDOUT)
    throw ConnectFailure("timeout", alias + ": no answer from " + last_addr + " port " + port_text +
                                        " within " + std::to_string(timeout_for_message.count()) +
                                        " ms; check that the host is up and its network link");
  throw ConnectFailure("unreachable", alias + ": cannot connect to " + last_addr + " port " +
                                          port_text + ": " + std::strerror(last_err) +
                                          "; check that sshd runs there and the port is right");
}

}  // namespace distkit::ssh::detail
