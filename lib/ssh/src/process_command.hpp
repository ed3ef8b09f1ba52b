// A child process driven like a remote command: argv spawned in its own
// process group, stdin fed from a queue, stdout/stderr streamed to handlers
// from one poll() thread, exit decoded into ExitInfo. Shared by the local
// executor (/bin/sh -c) and the system-ssh fallback (ssh -F cfg host cmd).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "distkit/ssh/executor.hpp"

namespace distkit::ssh::detail {

// Starts `argv` (argv[0] an absolute path or found on PATH). A timeout > 0
// kills the process group at the deadline and reports
// "timed out after <N> ms". Spawn failures are reported through on_exit.
std::unique_ptr<RunningCommand> spawn_process(const std::vector<std::string>& argv,
                                              StreamHandlers handlers,
                                              std::chrono::milliseconds timeout);

// Runs `argv` to completion with `options`, collecting the output.
CommandResult run_process(const std::vector<std::string>& argv, const RunOptions& options);

}  // namespace distkit::ssh::detail
