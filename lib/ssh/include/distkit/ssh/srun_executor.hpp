// SrunExecutor: the Executor for a node of the Slurm allocation distlaunch
// runs in (distlaunch --launcher srun). Sites block SSH to compute nodes,
// or adopt an SSH login into the job's cgroup; a job step is how Slurm
// means work to reach its nodes. Each command is one step of one task on
// one node:
//   srun --nodes=1 --ntasks=1 --nodelist=NODE --overlap --quiet --mpi=none
//        --export=ALL,DISTKIT_AGENT_LINES=1 /bin/sh -c COMMAND
// whose stdin and stdout carry the command's, so the host agent's protocol
// runs over it as over an SSH channel. --overlap lets the steps of one
// job's nodes (and a host's second command) share the allocation; a step
// gets all of its node's CPUs by default (Slurm 22.05). Slurm passes a
// task's output on by lines: DISTKIT_AGENT_LINES=1 has the host agent end
// every write with a newline (distkit-agent(1)).
//
// abort() kills srun (its process group): Slurm then ends the step and
// kills what the step started. srun's own failures (a node outside the
// allocation, no controller) exit 1 with "srun: error: ..." on stderr, as
// a command's own exit 1 would; a launcher sees them in the stderr it
// reports.
#pragma once

#include <string>
#include <vector>

#include "distkit/ssh/connect.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::ssh {

class SrunExecutor : public Executor {
 public:
  // `node`: a node name of the allocation (SLURM_JOB_NODELIST's).
  explicit SrunExecutor(std::string node) : node_(std::move(node)) {}
  const std::string& host() const override { return node_; }
  bool is_local() const override { return false; }
  CommandResult run(const std::string& command, const RunOptions& options = {}) override;
  std::unique_ptr<RunningCommand> start(const std::string& command,
                                        StreamHandlers handlers) override;
  // The srun command line for `command` (for tests and --dry-run).
  std::vector<std::string> argv(const std::string& command) const;

 private:
  std::string node_;
};

// connect_all's counterpart for --launcher srun: an SrunExecutor per host
// (duplicates share one). Nothing is run: a node srun cannot reach shows
// when the host agent's step fails, with srun's message.
Connections srun_connect_all(const std::vector<std::string>& hosts, const ConnectOptions& options);

}  // namespace distkit::ssh
