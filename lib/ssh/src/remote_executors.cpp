// SshExecutor and SystemSshExecutor (see remote_executors.hpp).
#include "remote_executors.hpp"

#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "process_command.hpp"

namespace distkit::ssh::detail {

CommandResult SshExecutor::run(const std::string& command, const RunOptions& options) {
  CommandResult r;
  StreamHandlers h;
  h.on_stdout = [&r](std::string_view s) { r.out.append(s); };
  h.on_stderr = [&r](std::string_view s) { r.err.append(s); };
  h.on_exit = [&r](const ExitInfo& e) { r.exit = e; };
  auto cmd = session_->start(command, std::move(h), options.timeout);
  if (!options.stdin_data.empty()) cmd->write_stdin(options.stdin_data);
  cmd->close_stdin();
  cmd->wait();
  return r;
}

std::unique_ptr<RunningCommand> SshExecutor::start(const std::string& command,
                                                   StreamHandlers handlers) {
  return session_->start(command, std::move(handlers), std::chrono::milliseconds(0));
}

SystemSshExecutor::SystemSshExecutor(std::string host, std::optional<std::string> ssh_config,
                                     std::vector<std::string> extra_options)
    : host_(std::move(host)), config_(std::move(ssh_config)), options_(std::move(extra_options)) {}

std::vector<std::string> SystemSshExecutor::argv(const std::string& command) const {
  std::vector<std::string> a{"ssh"};
  if (config_) a.insert(a.end(), {"-F", *config_});
  for (const auto& o : options_) a.insert(a.end(), {"-o", o});
  a.insert(a.end(), {"-T", "--", host_, "exec /bin/sh -c " + shell_quote(command)});
  return a;
}

namespace {
// ssh(1) exits 255 for its own failures: report those as transport errors.
void mark_transport_failure(ExitInfo& e, const std::string& err) {
  if (e.exit_status != 255) return;
  std::string last = last_line(err);
  e = ExitInfo{-1, 0, last.empty() ? "ssh failed (exit 255)" : last};
}
}  // namespace

CommandResult SystemSshExecutor::run(const std::string& command, const RunOptions& options) {
  CommandResult r = run_process(argv(command), options);
  mark_transport_failure(r.exit, r.err);
  return r;
}

std::unique_ptr<RunningCommand> SystemSshExecutor::start(const std::string& command,
                                                         StreamHandlers handlers) {
  // ssh's own failure is the last line of its stderr: the last 4 KiB are
  // kept (the first 4 KiB, kept once, named what the rank said first).
  auto err = std::make_shared<std::string>();
  auto on_err = handlers.on_stderr;
  handlers.on_stderr = [err, on_err](std::string_view s) {
    err->append(s);
    if (err->size() > 8192) err->erase(0, err->size() - 4096);
    if (on_err) on_err(s);
  };
  auto on_exit = handlers.on_exit;
  handlers.on_exit = [err, on_exit](const ExitInfo& e) {
    ExitInfo copy = e;
    mark_transport_failure(copy, *err);
    if (on_exit) on_exit(copy);
  };
  return spawn_process(argv(command), std::move(handlers), std::chrono::milliseconds(0));
}

}  // namespace distkit::ssh::detail
