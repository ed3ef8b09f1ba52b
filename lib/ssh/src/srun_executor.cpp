// SrunExecutor (see srun_executor.hpp): srun through the shared process
// runner, as the local executor runs /bin/sh.
#include "distkit/ssh/srun_executor.hpp"

#include <map>

#include "process_command.hpp"

namespace distkit::ssh {

std::vector<std::string> SrunExecutor::argv(const std::string& command) const {
  return {"srun",      "--nodes=1", "--ntasks=1", "--nodelist=" + node_,
          "--overlap", "--quiet",   "--mpi=none", "--export=ALL,DISTKIT_AGENT_LINES=1",
          "/bin/sh",   "-c",        command};
}

CommandResult SrunExecutor::run(const std::string& command, const RunOptions& options) {
  return detail::run_process(argv(command), options);
}

std::unique_ptr<RunningCommand> SrunExecutor::start(const std::string& command,
                                                    StreamHandlers handlers) {
  return detail::spawn_process(argv(command), std::move(handlers), std::chrono::milliseconds(0));
}

Connections srun_connect_all(const std::vector<std::string>& hosts, const ConnectOptions&) {
  Connections out;
  std::map<std::string, std::shared_ptr<Executor>> by_name;
  for (const auto& h : hosts) {
    auto& ex = by_name[h];
    if (!ex) ex = std::make_shared<SrunExecutor>(h);
    out.executors.push_back(ex);
  }
  return out;
}

}  // namespace distkit::ssh
