// Signals as readable bytes: the self-pipe trick (portable to macOS, unlike
// signalfd). While a SignalPipe lives, each of its signals writes its number
// into a non-blocking pipe that the owner's poll() loop reads; SIGPIPE is
// ignored, so a closed pipe gives EPIPE instead of killing us. The handler
// only write()s (async-signal-safe). Header-only and libc only: distlaunch's
// supervisor, its mpirun and sbatch waits, and the host agent's loop.
#pragma once

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <initializer_list>
#include <stdexcept>
#include <utility>
#include <vector>

#include "distkit/util/posix.hpp"

namespace distkit::posix {

// The pipe's write end, for the handler: only one SignalPipe may live at a time.
inline int g_signal_pipe = -1;

extern "C" inline void on_signal_pipe(int sig) {
  int saved = errno;
  unsigned char b = static_cast<unsigned char>(sig);
  if (g_signal_pipe >= 0) (void)!::write(g_signal_pipe, &b, 1);
  errno = saved;
}

class SignalPipe {
 public:
  // Installs the handlers. The default: what a user sends distlaunch (SIGQUIT
  // asks for every rank's stacks, as a JVM's thread dump).
  explicit SignalPipe(std::initializer_list<int> signals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    for (int fd : fds) set_cloexec_nonblock(fd);
    read_fd_ = fds[0];
    g_signal_pipe = fds[1];
    struct sigaction sa {};
    sa.sa_handler = on_signal_pipe;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int s : signals) sigaction(s, &sa, &old_.emplace_back(s, sigaction_t{}).second);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old_.emplace_back(SIGPIPE, sigaction_t{}).second);
  }
  // Restores the previous handlers.
  ~SignalPipe() {
    for (const auto& [s, old] : old_) sigaction(s, &old, nullptr);
    ::close(std::exchange(g_signal_pipe, -1));
    ::close(read_fd_);
  }
  SignalPipe(const SignalPipe&) = delete;
  SignalPipe& operator=(const SignalPipe&) = delete;

  int fd() const { return read_fd_; }
  // In a forked child, which must not hold the pipe: closes both ends.
  void close_in_child() const {
    ::close(read_fd_);
    ::close(g_signal_pipe);
  }
  // Signals received since the last call (non-blocking).
  std::vector<int> drain() {
    std::vector<int> out;
    unsigned char buf[64];
    ssize_t n;
    while ((n = ::read(read_fd_, buf, sizeof buf)) > 0)
      for (ssize_t i = 0; i < n; ++i) out.push_back(buf[i]);
    return out;
  }
  // The same after waiting up to `timeout_ms` for one: the loop of a
  // caller that waits on a child it must stop when a signal comes.
  std::vector<int> wait(int timeout_ms) {
    pollfd p{read_fd_, POLLIN, 0};
    (void)::poll(&p, 1, timeout_ms);
    return drain();
  }

 private:
  using sigaction_t = struct sigaction;
  int read_fd_ = -1;
  std::vector<std::pair<int, sigaction_t>> old_;  // each signal's handler before ours
};

}  // namespace distkit::posix
