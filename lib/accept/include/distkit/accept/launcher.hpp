// One distlaunch job, run in-process through the launch library's entry
// point (run_distlaunch): distaccept's only way of starting anything on the
// hosts. Every job writes its per-rank logs (rank-N.log), distlaunch's own
// messages (distlaunch.log) and the run manifest (manifest.json) into its
// own local directory; ranks get no stdin.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "distkit/launch/options.hpp"

namespace distkit::accept {

// How to reach the cluster (the distlaunch flags distaccept passes on).
struct ClusterAccess {
  std::optional<std::filesystem::path> ssh_config;
  bool accept_new_host_keys = false;
  int starting_port = 32323;
  std::chrono::milliseconds connect_timeout{10000};
};

struct LaunchOutcome {
  int exit_code = -1;
  std::string error;  // distlaunch refused or failed to start: its error line
  double duration_s = 0;
  bool interrupted = false;  // SIGINT/SIGTERM/SIGHUP reached distaccept
  bool succeeded() const { return error.empty() && exit_code == 0; }
};

// distlaunch's options for a job of distaccept's: `access`, and no stdin
// for the ranks. The caller adds the job itself (hostfile, command, log_dir).
launch::LaunchOptions launch_options(const ClusterAccess& access);

// Runs the job; its log_dir (which must be set) gets distlaunch.log too.
LaunchOutcome launch(const launch::LaunchOptions& options);

}  // namespace distkit::accept
