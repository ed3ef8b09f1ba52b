// LocalExecutor: the Executor for this machine. Used for 127.0.0.1,
// localhost and this machine's own names, so a local run needs no sshd.
//
// Each command runs as `/bin/sh -c <command>` in a process group of its own
// (posix_spawn with POSIX_SPAWN_SETPGROUP), so abort() and a timeout kill the
// command together with everything it started (children, grandchildren that
// did not leave the group). One I/O thread per command multiplexes stdin,
// stdout and stderr with poll() (portable to macOS; no epoll/pipe2).
#pragma once

#include <string>

#include "distkit/ssh/executor.hpp"

namespace distkit::ssh {

class LocalExecutor : public Executor {
 public:
  // `host` is the name the user gave (for messages), e.g. "localhost".
  explicit LocalExecutor(std::string host = "localhost") : host_(std::move(host)) {}

  const std::string& host() const override { return host_; }
  bool is_local() const override { return true; }

  // Runs to completion. With options.timeout > 0, the whole process group is
  // killed (SIGKILL) at the deadline and exit.error is
  // "timed out after <N> ms". A command that cannot be started (no /bin/sh,
  // out of processes) reports exit.error too. Never throws for command
  // failures.
  CommandResult run(const std::string& command, const RunOptions& options = {}) override;

  // Starts the command; output is streamed to `handlers` from the command's
  // I/O thread. The command finishes when it has exited and its stdout and
  // stderr are closed (or 200 ms after it exited while a background child
  // still holds them open). The returned object's destructor waits for it.
  std::unique_ptr<RunningCommand> start(const std::string& command,
                                        StreamHandlers handlers) override;

 private:
  std::string host_;
};

}  // namespace distkit::ssh
