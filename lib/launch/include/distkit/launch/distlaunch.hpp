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

// Runs the job (or the dry run); returns the exit status: 0, the first
// failing rank's status, 1 runtime failure, 2 usage, 128+N interrupted.
// Throws distkit::Error for usage and connection problems.
int run_distlaunch(const LaunchOptions& options, const Services& services);

}  // namespace distkit::launch
