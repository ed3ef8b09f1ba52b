// See remote.hpp.
#include "distkit/netsetup/remote.hpp"

#include <thread>

namespace distkit::netsetup {

std::vector<ssh::CommandResult> run_scripts(
    const std::vector<std::shared_ptr<ssh::Executor>>& executors,
    const std::vector<std::string>& scripts, const std::string& command,
    std::chrono::milliseconds timeout, ProgressBoard* board) {
  std::vector<ssh::CommandResult> out(executors.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < executors.size(); ++i) {
    if (!executors[i]) {
      out[i].exit.error = "not connected";
      if (board) board->set(i, HostState::failed, "skipped");
      continue;
    }
    threads.emplace_back([&, i] {
      if (board) board->set(i, HostState::working);
      out[i] = executors[i]->run(command, {.stdin_data = scripts[i], .timeout = timeout});
      if (board)
        board->set(i, out[i].exit.ok() ? HostState::done : HostState::failed, out[i].exit.error);
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace distkit::netsetup
