// The two executors for remote hosts: SshExecutor (commands as channels on
// the host's shared libssh2 session) and SystemSshExecutor (one `ssh`
// process per command, for hosts whose ssh_config needs ProxyJump or
// ProxyCommand, which libssh2 cannot do). Both run the command as
// `exec /bin/sh -c '<command>'` so it is POSIX sh whatever the login shell
// (zsh on macOS).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distkit/ssh/executor.hpp"
#include "ssh_session.hpp"

namespace distkit::ssh::detail {

class SshExecutor : public Executor {
 public:
  SshExecutor(std::string host, std::shared_ptr<SshSession> session)
      : host_(std::move(host)), session_(std::move(session)) {}
  const std::string& host() const override { return host_; }
  bool is_local() const override { return false; }
  CommandResult run(const std::string& command, const RunOptions& options = {}) override;
  std::unique_ptr<RunningCommand> start(const std::string& command,
                                        StreamHandlers handlers) override;
  void close_soon() override { session_->request_stop(); }

 private:
  std::string host_;
  std::shared_ptr<SshSession> session_;
};

class SystemSshExecutor : public Executor {
 public:
  // `ssh_config`: passed as -F when set. `extra_options`: -o settings
  // (BatchMode, ConnectTimeout, StrictHostKeyChecking).
  SystemSshExecutor(std::string host, std::optional<std::string> ssh_config,
                    std::vector<std::string> extra_options);
  const std::string& host() const override { return host_; }
  bool is_local() const override { return false; }
  CommandResult run(const std::string& command, const RunOptions& options = {}) override;
  std::unique_ptr<RunningCommand> start(const std::string& command,
                                        StreamHandlers handlers) override;

 private:
  std::vector<std::string> argv(const std::string& command) const;
  std::string host_;
  std::optional<std::string> config_;
  std::vector<std::string> options_;
};

}  // namespace distkit::ssh::detail
