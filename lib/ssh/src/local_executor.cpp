// LocalExecutor: /bin/sh -c <command> through the shared process runner.
#include "distkit/ssh/local_executor.hpp"

#include "process_command.hpp"

namespace distkit::ssh {

CommandResult LocalExecutor::run(const std::string& command, const RunOptions& options) {
  return detail::run_process({"/bin/sh", "-c", command}, options);
}

std::unique_ptr<RunningCommand> LocalExecutor::start(const std::string& command,
                                                     StreamHandlers handlers) {
  return detail::spawn_process({"/bin/sh", "-c", command}, std::move(handlers),
                               std::chrono::milliseconds(0));
}

}  // namespace distkit::ssh
