// The host agent's signal setup (agent.cpp) and distkit's POSIX helpers
// (distkit/util/posix.hpp) for its files. libc only, header-only.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "distkit/util/posix.hpp"

namespace distkit_agent {

using distkit::posix::drain_pipe;
using distkit::posix::now_seconds;
using distkit::posix::set_cloexec_nonblock;
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

// Written by the signal handler, read by the agent's loop: the first HUP,
// INT or TERM caught (0:
// none), and the self-pipe by which every signal, SIGCHLD too, ends poll().
inline volatile sig_atomic_t g_signal = 0;
inline int g_wake[2] = {-1, -1};

inline void on_loop_signal(int sig) {
  int saved = errno;
  if (!g_signal && sig != SIGCHLD) g_signal = sig;
  char b = 1;
  (void)!write(g_wake[1], &b, 1);
  errno = saved;
}

// Makes the wake pipe, then sends HUP, INT, TERM and CHLD to
// on_loop_signal, SIGPIPE ignored (a closed pipe is an error return, not
// death). False: no pipe.
inline bool catch_loop_signals() {
  g_signal = 0;
  if (pipe(g_wake) != 0) return false;
  for (int fd : g_wake) set_cloexec_nonblock(fd);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_loop_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD}) sigaction(s, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return true;
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
