// distaccept's entry points: the CLI definition and the whole run (read the
// task, run it, judge, report), taking its output streams so tests drive the
// tool in-process.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "distkit/accept/runner.hpp"

namespace distkit::accept {

struct AcceptOptions {
  std::filesystem::path task;
  // --hostfile, --baseline-host and how to reach the cluster; run_distaccept
  // fills in the rest.
  RunnerOptions run;
  std::optional<int> repetitions;     // overrides the task's
  std::optional<int> ranks_per_host;  // overrides the task's
  std::optional<std::filesystem::path> work_dir;
  bool json = false;
  bool verbose = false;
  std::optional<int> hpc_nodes;          // --hpc-nodes: the HPC column
  std::vector<std::string> sbatch_args;  // --sbatch-arg
};

void configure_cli(CLI::App& app, AcceptOptions& options);

// Returns the exit status: 0 all levels reached, 3 runs / 4 reproducible /
// 5 deliverable not reached. Throws distkit::Error for usage (2), runtime
// (1) and interruption (130).
int run_distaccept(const AcceptOptions& options, std::FILE* out, std::FILE* err);

}  // namespace distkit::accept
