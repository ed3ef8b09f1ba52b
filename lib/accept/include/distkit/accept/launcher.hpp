// One distlaunch job, run in-process through the launch library's entry
// point (run_distlaunch): distaccept's only way of starting anything on the
// hosts. Every job writes its per-rank logs (rank-N.log), distlaunch's own
// messages (distlaunch.log) and the run manifest (manifest.json) into its
// own local directory; ranks get no stdin.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace distkit::accept {

// How to reach the cluster (the distlaunch flags distaccept passes on).
struct ClusterAccess {
  std::optional<std::filesystem::path> ssh_config;
  bool accept_new_host_keys = false;
  int starting_port = 32323;
  double connect_timeout_s = 10;
};

struct LaunchRequest {
  std::filesystem::path hostfile;
  int ranks_per_host = 1;
  std::vector<std::string> command;
  std::optional<std::string> cwd;
  std::vector<std::string> env;  // KEY=VALUE
  std::filesystem::path dir;     // local: logs, manifest, distlaunch.log
  bool preflight = true;
  double timeout_s = 0;  // 0 = none
};

struct LaunchOutcome {
  int exit_code = -1;
  std::string error;  // distlaunch refused or failed to start: its error line
  double duration_s = 0;
  bool interrupted = false;  // SIGINT/SIGTERM/SIGHUP reached distaccept
  bool succeeded() const { return error.empty() && exit_code == 0; }
};

LaunchOutcome launch(const ClusterAccess& access, const LaunchRequest& request);

// A local file's text, "" when absent or unreadable.
std::string text_or_empty(const std::filesystem::path& path);
// The text of dir/rank-N.log ("" when absent).
std::string rank_log(const std::filesystem::path& dir, int rank);

}  // namespace distkit::accept
