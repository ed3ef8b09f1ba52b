// Running one script per host, all hosts at once, over the executors the
// probe already opened (SSH or local). The only I/O in lib/netsetup.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "distkit/ssh/executor.hpp"
#include "distkit/util/progress.hpp"

namespace distkit::netsetup {

// Runs `command` on executors[i] with scripts[i] on its stdin, in parallel
// (one thread per host); a nullptr executor gives a result with error
// "not connected". Results are in the executors' order. Never throws for a
// host's failure. `board` (optional, same host order) shows each host
// working, then done or failed (the command's exit status).
std::vector<ssh::CommandResult> run_scripts(
    const std::vector<std::shared_ptr<ssh::Executor>>& executors,
    const std::vector<std::string>& scripts, const std::string& command,
    std::chrono::milliseconds timeout, ProgressBoard* board = nullptr);

}  // namespace distkit::netsetup
