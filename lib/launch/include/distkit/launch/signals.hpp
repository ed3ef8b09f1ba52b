// Ctrl-C, SIGTERM, SIGHUP and SIGQUIT as readable bytes: a self-pipe (portable to
// macOS, unlike signalfd). While a SignalPipe lives, those signals write
// their number into a non-blocking pipe that the supervisor polls; SIGPIPE is
// ignored so a closed stdout gives EPIPE instead of killing us.
#pragma once

#include <vector>

namespace distkit::launch {

class SignalPipe {
 public:
  SignalPipe();   // installs the handlers; only one may exist at a time
  ~SignalPipe();  // restores the previous handlers
  SignalPipe(const SignalPipe&) = delete;
  SignalPipe& operator=(const SignalPipe&) = delete;

  int fd() const { return read_fd_; }
  // Signals received since the last call (non-blocking).
  std::vector<int> drain();
  // The same after waiting up to `timeout_ms` for one: the loop of a
  // caller that waits on a child it must stop when a signal comes.
  std::vector<int> wait(int timeout_ms);

 private:
  int read_fd_ = -1;
};

}  // namespace distkit::launch
