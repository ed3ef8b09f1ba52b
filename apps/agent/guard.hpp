// The agent's guard: stops the agent's ranks should the agent itself die
// without stopping them (SIGKILL, the OOM killer). It is one /bin/sh
// process a host, started once the preflight is answered (ranks are the
// agent's own children, with no process of ours between; rank.hpp). The
// agent tells it each rank's process group as the rank starts and as its
// group is gone; when the agent's end of the pipe closes, the guard sends
// TERM to the groups it still holds, KILL to what is left after the
// longest grace, and removes their temp dirs. An agent that ends normally
// has ended every rank first: its guard holds none and exits at once. It
// is sh, not a fork of the agent, and named distkit-rank-guard, so that
// a `pkill distkit-agent` (with -f too) does not take it as well; it holds
// none of the agent's descriptors, so sshd does not wait for it.
#pragma once

#include <sys/types.h>

#include <string>

namespace distkit_agent {

class Guard {
 public:
  // Starts the guard process, unless it runs or could not be started.
  void start();
  // Rank group `group` (its pid) runs, its temp dir `dir`; a stop gives it
  // `grace` s from TERM to KILL. Starts the guard first if need be.
  void watch(pid_t group, double grace, const std::string& dir);
  // Group `group` is gone: the guard forgets it (its pid may be reused).
  void forget(pid_t group);
  // The pipe's write end, for a forked child to close (-1: none).
  int fd() const { return fd_; }

 private:
  void tell(const std::string& line);

  int fd_ = -1;
  bool failed_ = false;  // it could not start, or is gone: ranks run unguarded
};

}  // namespace distkit_agent
