// The HPC column of an acceptance run: the task's repetitions as one Slurm
// batch job (templates/accept_hpc_job.sh), submitted with `sbatch --wait`
// from where distaccept runs (a login node), so a lab compares one host,
// its Mac cluster and its HPC on the same task before moving anything.
// Inside the job, distlaunch (srun launcher, the allocation's layout) runs
// the host probe, then each repetition; everything it writes lands in
// distaccept's work directory, which the HPC's nodes must share (as they
// share home and scratch file systems with their login nodes).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace distkit::accept {

struct HpcOptions {
  int nodes = 0;                         // --hpc-nodes
  std::vector<std::string> sbatch_args;  // --sbatch-arg, in order
  std::string distlaunch;                // the distlaunch the job runs (absolute)
};

// What the batch job runs: the flags every distlaunch of it gets, the
// probe's script, and per repetition its directory, command, flags and
// collect script.
struct HpcRun {
  std::string dir;
  std::vector<std::string> command;
  std::vector<std::string> flags;  // distlaunch's, before --log-dir
  std::string collect;             // shell run on rank 0's node afterwards
};
struct HpcJob {
  std::string name;                      // sbatch -J
  std::string cwd;                       // the task's working directory
  int ranks_per_node = 1;                // --ntasks-per-node
  std::vector<std::string> probe_flags;  // distlaunch's for the probe
  std::string probe_dir;
  std::string probe;  // the probe's script
  std::vector<HpcRun> runs;
  std::filesystem::path dir;  // where job.sh and Slurm's output go
};

struct HpcOutcome {
  std::string job_id;        // "" when sbatch did not submit it
  std::string error;         // sbatch (or scancel) failed: its last error line
  bool interrupted = false;  // INT, TERM or HUP came: the job was cancelled
};

// Writes job.sh into job.dir and runs sbatch --wait there; the job's own
// results are read from the directories by the caller. A signal (INT,
// TERM, HUP) while it waits cancels the job with scancel (interrupted).
HpcOutcome submit_hpc_job(const HpcOptions& o, const HpcJob& job);

// distaccept's checks of the HPC options before anything runs: sbatch on
// PATH, a distlaunch to run, and `world` ranks that divide among the
// nodes. Returns the ranks per node; throws UsageError.
int check_hpc(HpcOptions& o, int world);

}  // namespace distkit::accept
