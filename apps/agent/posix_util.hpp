// Small POSIX helpers shared by the rank wrapper (main.cpp) and the host
// agent (agent.cpp). libc only, header-only.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include <cstring>

namespace distkit_agent {

// Monotonic seconds, for timeouts.
inline double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Our own ends of pipes: not inherited across exec, never blocking the loop.
inline void set_cloexec_nonblock(int fd) {
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

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
