// Small POSIX helpers shared by the rank wrapper (main.cpp) and the host
// agent (agent.cpp). libc only, header-only.
#pragma once

#include <fcntl.h>
#include <time.h>

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

}  // namespace distkit_agent
