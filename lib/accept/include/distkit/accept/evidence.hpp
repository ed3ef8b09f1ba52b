// What distaccept gathered while running a task: one record per run
// (baseline and cluster repetitions, the resume step), the versions each
// host reported and the input hashes per host. The runner (runner.hpp)
// fills it; the levels (levels.hpp) are judged from it alone, so they are
// unit-tested without a cluster.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "distkit/accept/compare.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::accept {

struct RankOutcome {
  int rank = 0;
  std::string host;
  std::string status;  // "exited 0", "killed by signal 9", or the manifest's error text
  bool ok = false;
};

struct RunRecord {
  std::string name;  // "baseline-1", "cluster-2", "resume", "hpc-1"
  std::string kind;  // "baseline", "cluster", "resume", "hpc"
  std::string dir;   // local: rank-N.log, manifest.json, distlaunch.log
  std::vector<std::string> hosts;
  int world_size = 0;
  int exit_code = -1;  // distlaunch's exit status
  std::string error;   // distlaunch failed before/around the ranks
  double duration_s = 0.0;
  std::vector<RankOutcome> ranks;
  std::map<std::string, MetricValue> metrics;
  std::string metrics_error;                       // why no metrics were read
  std::map<std::string, std::string> file_hashes;  // path -> sha256 hex ("" = missing)
  std::optional<std::string> manifest;             // distlaunch's manifest.json text
  std::string slurm_job_id;                        // hpc: the Slurm job that ran it
  bool succeeded() const { return error.empty() && exit_code == 0; }
};

// One host's answer to the version probe: os, python, mlx, distkit ("" =
// not installed there).
struct HostVersions {
  std::string host;
  std::map<std::string, std::string> values;
};

struct Evidence {
  std::vector<RunRecord> runs;
  std::vector<HostVersions> versions;  // every host of the cluster
  std::string probe_error;             // the probe step failed: why
  std::optional<Problem> interrupted;  // a signal stopped the run: in which step
  // input path -> host -> sha256 hex ("" = missing on that host)
  std::map<std::string, std::map<std::string, std::string>> inputs;
};

}  // namespace distkit::accept
