// Opening the TCP connection to an SSH server with a deadline: resolve,
// then try each address with a non-blocking connect() and poll(). Portable
// (no SOCK_CLOEXEC/SOCK_NONBLOCK flags: fcntl after socket()).
#pragma once

#include <chrono>
#include <string>

namespace distkit::ssh::detail {

// Returns a connected, non-blocking, close-on-exec socket with TCP_NODELAY
// (and SO_NOSIGPIPE where it exists). Throws ConnectFailure:
//   "unreachable": "<alias>: cannot connect to <addr> port <p>: <reason>; <remedy>"
//   "timeout":     "<alias>: no answer from <addr> port <p> within <N> ms; ..."
int tcp_connect(const std::string& alias, const std::string& host_name, int port,
                std::chrono::steady_clock::time_point deadline,
                std::chrono::milliseconds timeout_for_message);

}  // namespace distkit::ssh::detail
