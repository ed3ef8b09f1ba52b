// The host agent's fork for its loop's children (agent.cpp) and distkit's
// POSIX helpers (distkit/util/posix.hpp) for its files. libc only,
// header-only.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "distkit/util/posix.hpp"
#include "distkit/util/signal_pipe.hpp"

namespace distkit_agent {

using distkit::posix::now_seconds;
using distkit::posix::set_cloexec_nonblock;
using distkit::posix::SignalPipe;
using distkit::posix::write_all;

// Closes `fd` unless it is closed already (-1), and marks it closed.
inline void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The first `max` bytes of the file at `path`, not through a symlink ("":
// it cannot be read).
inline std::string read_file(const std::string& path, std::size_t max) {
  std::string out;
  distkit::posix::Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return out;
  char buf[4096];
  ssize_t n;
  while (out.size() < max && (n = read(fd.get(), buf, sizeof buf)) > 0)
    out.append(buf, std::min(static_cast<std::size_t>(n), max - out.size()));
  return out;
}

// fork() for a child of the agent's loop: the loop's signals stay blocked
// across it, so none meant for us runs our handler in the child; the child
// gets their default dispositions (and SIGPIPE's) before they are
// unblocked. Returns what fork returned.
inline pid_t fork_child() {
  sigset_t block, old;
  sigemptyset(&block);
  for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&block, s);
  sigprocmask(SIG_BLOCK, &block, &old);
  pid_t pid = fork();
  if (pid == 0)
    for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE}) signal(s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return pid;
}

}  // namespace distkit_agent
