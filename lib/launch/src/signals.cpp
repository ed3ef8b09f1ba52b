// The self-pipe trick: the handler only write()s (async-signal-safe); all
// the work happens in the supervisor's poll loop.
#include "distkit/launch/signals.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>

#include "distkit/util/posix.hpp"

namespace distkit::launch {

namespace {
int g_write_fd = -1;
// SIGQUIT asks for every rank's stacks (the job goes on), as a JVM's
// thread dump: Ctrl-\ on a terminal no longer kills distlaunch.
constexpr int kCount = 4;
struct sigaction g_old[kCount];
const int kSignals[kCount] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
struct sigaction g_old_pipe;

extern "C" void on_signal(int sig) {
  int saved = errno;
  unsigned char b = static_cast<unsigned char>(sig);
  if (g_write_fd >= 0) (void)!write(g_write_fd, &b, 1);
  errno = saved;
}

}  // namespace

SignalPipe::SignalPipe() {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
  posix::set_cloexec_nonblock(fds[0]);
  posix::set_cloexec_nonblock(fds[1]);
  read_fd_ = fds[0];
  g_write_fd = fds[1];
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int i = 0; i < kCount; ++i) sigaction(kSignals[i], &sa, &g_old[i]);
  struct sigaction ign {};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  sigaction(SIGPIPE, &ign, &g_old_pipe);
}

SignalPipe::~SignalPipe() {
  for (int i = 0; i < kCount; ++i) sigaction(kSignals[i], &g_old[i], nullptr);
  sigaction(SIGPIPE, &g_old_pipe, nullptr);
  close(g_write_fd);
  g_write_fd = -1;
  close(read_fd_);
}

std::vector<int> SignalPipe::drain() {
  std::vector<int> out;
  unsigned char buf[64];
  ssize_t n;
  while ((n = read(read_fd_, buf, sizeof buf)) > 0)
    for (ssize_t i = 0; i < n; ++i) out.push_back(buf[i]);
  return out;
}

std::vector<int> SignalPipe::wait(int timeout_ms) {
  pollfd p{read_fd_, POLLIN, 0};
  (void)::poll(&p, 1, timeout_ms);
  return drain();
}

}  // namespace distkit::launch
