// distlaunch's entry points: the CLI definition (mlx.launch's flags plus
// distkit's own) and the run itself, taking parsed options and its services
// so tests drive the whole tool in-process.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "distkit/launch/options.hpp"
#include "distkit/ssh/connect.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::launch {

// Adds every flag to `app`, bound to `options`. The command is what follows
// `--` (or the first positional argument): call split_command() on argv first.
void configure_cli(CLI::App& app, LaunchOptions& options);

// Splits argv at the first "--": the words after it become options.command
// and the returned argv (for CLI11) keeps what came before.
std::vector<std::string> split_command(int argc, char** argv, LaunchOptions& options);

struct Services {
  std::function<ssh::Connections(const std::vector<std::string>&, const ssh::ConnectOptions&)>
      connect = ssh::connect_all;
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  int stdin_fd = 0;
  bool handle_signals = true;
};

// What a run came to, for callers that need more than its status
// (distaccept tells an interrupted run from a failed one by it).
struct RunResult {
  // 0, the first failing rank's status, 1 runtime failure, 128+N interrupted.
  int exit_code = 0;
  bool interrupted = false;       // a signal to distlaunch stopped the job
  bool stalled = false;           // stopped on a stall or a failed health check
  std::string reason;             // the line printed on failure ("" when ok)
  std::vector<Problem> warnings;  // the preflight's (its errors throw)
};

// Runs the job (or the dry run). Throws distkit::Error for usage and
// connection problems (exit 2 and 1).
RunResult run_distlaunch(const LaunchOptions& options, const Services& services);

}  // namespace distkit::launch
