// Preflight: before any rank starts, one command per host (in parallel)
// checks that the command and --cwd exist and reports the OS build and,
// for python jobs, the python and mlx versions, and tries the ports the
// host's ranks will listen on (bound once each: here directly, on remote
// hosts by distlaunch-rank or else perl; skipped where a host has neither). Every problem of
// every host is reported at once; version drift between hosts is a warning.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "distkit/launch/host_agent.hpp"
#include "distkit/launch/plan.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

struct HostFacts {
  std::string os, python, mlx, git;
  std::string helper;  // the distlaunch-rank that runs there ("" if none)
  bool answered = false;  // the host's check ran to its end (else: facts unknown)
};

struct PreflightReport {
  std::map<std::string, HostFacts> hosts;  // by ssh name
  std::vector<std::string> problems;       // "<host>: <problem>; <remedy>"
  // Hosts that failed during the checks (connection lost, timeout): a
  // runtime failure, not a configuration problem. Same line format.
  std::vector<std::string> failures;
  std::vector<std::string> warnings;
};

// `executors` maps each of plan.hosts to its executor (same order). With
// `check` false only the facts are gathered (for the manifest), no problem
// is reported. `want_commit`: also ask for the git commit of the working
// directory (the manifest's; a program start per host otherwise saved).
// `helpers`: the distlaunch-rank candidates (WrapperSettings::rank_helpers);
// the first that runs on a host is reported in its facts and tries the
// ports there instead of perl. `agents`: per host (same order; may be
// shorter, entries may be null) a HostAgentExecutor whose channel runs the
// check and then, where the helper answered, stays on as the host agent
// (idle limit `agent_idle` seconds).
PreflightReport run_preflight(const Plan& plan,
                              const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                              bool cwd_required, bool check, bool want_commit,
                              const std::vector<std::string>& helpers = {},
                              const std::vector<std::shared_ptr<HostAgentExecutor>>& agents = {},
                              long agent_idle = 0);

// The local ports the plan's ranks on this machine will listen on, that are
// already taken (tries to bind each).
std::vector<int> busy_local_ports(const std::vector<int>& ports);

}  // namespace distkit::launch
