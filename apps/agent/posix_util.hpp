// The signal setup shared by the rank wrapper (main.cpp) and the host agent
// (agent.cpp), and distkit's POSIX helpers (distkit/util/posix.hpp) for
// both. libc only, header-only.
#pragma once

#include <signal.h>

#include <cstring>

#include "distkit/util/posix.hpp"

namespace distkit_agent {

using distkit::posix::now_seconds;
using distkit::posix::set_cloexec_nonblock;

// HUP, INT, TERM and CHLD to `handler` (each loop wakes on them through its
// self-pipe), SIGPIPE ignored (a closed pipe is an error return, not death).
inline void catch_loop_signals(void (*handler)(int)) {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD}) sigaction(s, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

}  // namespace distkit_agent
