// The acceptance run itself: probe every host (versions, input hashes, run
// directories), run the task K times on the baseline host (all ranks local
// to it, the same world size as the cluster) and K times across the
// cluster's hostfile, collect metrics and file hashes from rank 0's host
// after each run, then the declared checkpoint/resume step, then, when
// asked, the HPC column as a Slurm job (hpc.hpp). Everything goes
// through distlaunch (launcher.hpp); every run keeps its own directory
// under the work directory:
//   WORK/probe/                host probe logs
//   WORK/baseline-hostfile.json  the baseline host's hostfile entry
//   WORK/baseline-K/ WORK/cluster-K/ WORK/resume/
//       rank-N.log manifest.json distlaunch.log collect/
// {run_dir} in the task's command is that run's directory (the same path on
// every host), {from_dir} the first cluster repetition's (resume step).
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include "distkit/accept/evidence.hpp"
#include "distkit/accept/hpc.hpp"
#include "distkit/accept/launcher.hpp"
#include "distkit/accept/task.hpp"

namespace distkit::accept {

struct RunnerOptions {
  ClusterAccess access;
  std::filesystem::path hostfile;
  std::optional<std::string> baseline_host;  // default: the hostfile's first host
  std::filesystem::path work_dir;            // absolute
  std::FILE* progress = nullptr;             // one line per step; nullptr = quiet
  // --hpc-nodes: the task's repetitions also as one Slurm job (hpc.hpp):
  // WORK/probe-hpc/, WORK/hpc-K/, WORK/hpc/ (the job's script and output).
  std::optional<HpcOptions> hpc;
};

// Throws UsageError for a bad hostfile or baseline host; a failing run is
// evidence, not an exception, and so is an interrupted one (what ran until
// then, with Evidence::interrupted).
Evidence run_acceptance(const Task& task, const RunnerOptions& options);

}  // namespace distkit::accept
