// The executor interface: how distkit runs a command on a host, whether the
// host is this machine (LocalExecutor, no sshd needed) or a remote one
// (SshExecutor: one libssh2 session per host, one channel per command).
//
// Commands are POSIX sh command lines (macOS /bin/sh is bash 3.2 in POSIX
// mode), built with shell_quote/templates, never by concatenation.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace distkit::ssh {

// How a command ended. Exactly one of the three outcomes holds.
struct ExitInfo {
  int exit_status = -1;  // 0..255 when the command exited
  int signal = 0;        // > 0 when it was killed by a signal
  std::string error;     // non-empty when the transport failed (connection
                         // lost, timeout); exit_status and signal unset
  bool ok() const { return error.empty() && signal == 0 && exit_status == 0; }
  // The status a shell would report: exit_status, 128 + signal, or 255 for a
  // transport failure (as ssh(1) does).
  int shell_status() const {
    return !error.empty() ? 255 : signal > 0 ? 128 + signal : exit_status;
  }
};

struct CommandResult {
  ExitInfo exit;
  std::string out;  // the command's stdout, whole
  std::string err;  // the command's stderr, whole
};

struct RunOptions {
  std::string stdin_data;                // written, then stdin closed
  std::chrono::milliseconds timeout{0};  // 0: no deadline
};

// Callbacks of a streaming command. They are called from an I/O thread owned
// by the executor, never concurrently for the same command; chunks are raw
// bytes (not split at line boundaries). on_exit is called exactly once, last.
struct StreamHandlers {
  std::function<void(std::string_view)> on_stdout;
  std::function<void(std::string_view)> on_stderr;
  std::function<void(const ExitInfo&)> on_exit;
};

// A command started with Executor::start().
class RunningCommand {
 public:
  virtual ~RunningCommand() = default;
  // Queue bytes for the command's stdin (non-blocking; thread-safe).
  virtual void write_stdin(std::string_view data) = 0;
  // Close the command's stdin after the queued bytes (thread-safe).
  virtual void close_stdin() = 0;
  // Tear the channel/process down from our side: for a local command, SIGKILL
  // to its process group; for SSH, close the channel. on_exit still follows.
  virtual void abort() = 0;
  // Blocks until on_exit has returned.
  virtual void wait() = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // The host as the user named it (for messages).
  virtual const std::string& host() const = 0;
  // True when commands run on this machine without SSH.
  virtual bool is_local() const = 0;
  // Runs `command` to completion and collects its output. Transport failures
  // are reported in ExitInfo::error, not thrown.
  virtual CommandResult run(const std::string& command, const RunOptions& options = {}) = 0;
  // Starts `command` and streams its output to `handlers`.
  virtual std::unique_ptr<RunningCommand> start(const std::string& command,
                                                StreamHandlers handlers) = 0;
  // Starts ending the connection, if there is one (commands still running
  // fail), without waiting; the destructor waits. So a caller ends many
  // hosts' connections at once instead of one after another.
  virtual void close_soon() {}
};

}  // namespace distkit::ssh
