// Preflight: before any rank starts, one channel per host (in parallel)
// finds distkit-agent and starts it as the host agent (agent_client.hpp);
// the agent's first request is the check: that the command and --cwd
// exist, the OS build and, for python jobs, the python and mlx versions,
// and the ports the host's ranks will listen on (bound once each). A host
// with no agent gets this distlaunch's own copy when it runs the same OS
// and architecture. Every problem of every host is reported at once;
// version drift between hosts is a warning.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/plan.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::launch {

struct HostFacts {
  std::string os, python, mlx, git;
  std::string agent;          // the distkit-agent that runs there ("" if none)
  std::string agent_hello;    // its hello: "<protocol> <distkit version>" ("" if none)
  bool agent_copied = false;  // this job copied distlaunch's own there
  bool answered = false;      // the host's check ran to its end (else: facts unknown)
  std::string slurm_step;     // under srun: the agent's job step, "JOB.STEP"
};

// This distlaunch's own distkit-agent, for hosts that have none.
struct AgentCopy {
  std::string path;    // here
  std::string system;  // this machine's, as `uname -s` and `uname -m` print it
  std::string build;   // its directory in a host's cache: version and build
};
// Beside this distlaunch (where distkit installs it, and in the build
// tree); nothing when it is not there.
std::optional<AgentCopy> own_agent_copy();

struct PreflightReport {
  std::map<std::string, HostFacts> hosts;  // by ssh name
  // Every finding, subject the host's ssh name ("" for differences between
  // hosts), by kind:
  //   preflight-failed  the host failed during the checks (connection lost,
  //                     timeout): a runtime failure (ExitCode::failure);
  //   no-agent          no host agent of this protocol there: reported
  //                     whether or not the checks run (--no-preflight skips
  //                     only the others); the job cannot start;
  //   command-missing, cwd-missing, port-busy: configuration (usage);
  //   agent-version, drift: warnings (the job runs).
  std::vector<Problem> problems;
};

// `agents` maps each of plan.hosts (same order) to the AgentClient over
// its executor whose channel runs the check and stays on as the host agent
// (its timing from the job's `heartbeat_limit`, agent_protocol.hpp).
// With `check` false only the facts are gathered (for the manifest) and
// the agent found, no problem of the checks is reported. `want_commit`:
// also ask for the git commit of the working directory (the manifest's; a
// program start per host otherwise saved). `candidates`: the installed
// distkit-agent candidates, in order (a name without '/' looked up on the
// host's PATH, a path executable there), tried before `copy`'s name in the
// host's cache; `copy` is copied there when neither exists and the host's
// system matches.
PreflightReport run_preflight(const Plan& plan,
                              const std::vector<std::shared_ptr<AgentClient>>& agents, bool check,
                              bool want_commit, const std::vector<std::string>& candidates,
                              const std::optional<AgentCopy>& copy, long heartbeat_limit,
                              bool sample_progress = false);

}  // namespace distkit::launch
