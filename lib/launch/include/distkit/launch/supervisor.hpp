// The supervisor: runs every rank of a plan through its host's executor and
// watches them until the job is over.
//
// Contract:
// - All ranks start in parallel (hosts in parallel, each host's ranks as
//   commands on its one executor, run by the host's agent); the launcher
//   sends the secret, then a heartbeat every second, the rank's stdin (all
//   ranks, or only `stdin_rank`), and the end-of-stdin marker.
// - Output is forwarded whole lines at a time (see output.hpp).
// - Fail fast: the first rank to fail (non-zero exit, signal, lost
//   connection) makes every other rank stop (TERM to its process group on its
//   host, KILL after `grace`); the job's exit code is that rank's status
//   (128+N for signal N, 255 for a lost connection).
// - A rank that exits 0 while others still run starts the `exit_window`;
//   ranks still running when it closes are stopped and the job fails (exit 1),
//   so a peer that left early cannot hang the job forever. 0 disables it.
// - `timeout` (0 = none) stops the whole job (exit 1).
// - SIGINT/SIGTERM/SIGHUP: forwarded to every rank's group; ranks still
//   running `grace` later are terminated; exit 128+N. A second signal kills
//   every rank at once.
// - Commands whose rank does not end within grace + 2 s of being told to
//   stop are aborted (the executor kills or closes them).
// - `stall_limit` (0 = off): no rank made progress (stall_watch.hpp) for that
//   long is a stall: the report, then every rank's stacks, then with
//   OnStall::abort the job stops (exit kStallExitCode); with dump it goes
//   on. `timeout` takes the stacks before it stops the job, and SIGQUIT
//   takes them while it goes on. Stacks come from each rank's host agent
//   and are printed as "distlaunch: stacks of rank R on HOST (WHY):" and
//   the dump, indented, on the job's stderr (and in the rank's --log-dir
//   file); JobResult::stacks keeps them for the manifest.
// The decisions above are SupervisorPolicy's (supervisor_policy.hpp), pure and
// tested with a fake clock; supervise() runs the I/O and carries them out.
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/debug_log.hpp"
#include "distkit/launch/plan.hpp"
#include "distkit/launch/rank_request.hpp"
#include "distkit/launch/supervisor_policy.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

using Clock = std::chrono::system_clock;

struct SuperviseOptions {
  RankSettings ranks;
  bool tag_output = false;
  std::optional<std::filesystem::path> log_dir;
  bool append_logs = false;       // a restart: after the earlier attempts' lines
  std::optional<int> stdin_rank;  // unset: broadcast
  int stdin_fd = 0;               // -1: no stdin for the ranks
  // timeout, exit_window, --stall-timeout and --on-stall (its grace is
  // ranks.grace's).
  PolicySettings policy;
  // --health-cmd: run on rank 0's host every `health_interval` (and given
  // that long to finish); a failure is handled as a stall.
  std::string health_cmd;
  std::chrono::seconds health_interval{10};
  bool handle_signals = true;  // install the SIGINT/TERM/HUP handlers
  std::FILE* out = stdout;
  std::FILE* err = stderr;
  std::string secret;             // hex; sent to each rank in its S frame
  const DebugLog* log = nullptr;  // --debug-log: starts, ends, decisions
};

struct RankResult {
  int rank = 0;
  std::string host;
  int pid = 0;  // as reported by its agent; 0 if unknown
  ssh::ExitInfo exit;
  bool stopped = false;  // we told it to stop
  Clock::time_point start, end;
};

// One rank's stacks, as its host gave them.
struct StackDump {
  int rank = 0;
  std::string host;
  std::string why;  // "stall", "--timeout", "SIGQUIT"
  Clock::time_point at;
  std::string text;
};

struct JobResult {
  int exit_code = 0;
  std::string reason;  // the line printed on failure ("" when ok)
  std::vector<RankResult> ranks;
  std::vector<StackDump> stacks;  // in the order they came
  bool stalled = false;           // stopped on a stall or a failed health check
  bool interrupted = false;       // stopped by a signal to distlaunch
  // The attempts before this one (--restart), oldest first.
  struct Attempt {
    int exit_code = 0;
    std::string reason;
    Clock::time_point start, end;
    std::vector<StackDump> stacks;
  };
  std::vector<Attempt> earlier;
  Clock::time_point start, end;
};

// `agents[i]` runs rank i (ranks of one host share one host agent).
// Never throws for rank failures; they are reported in the result.
JobResult supervise(const Plan& plan, const std::vector<std::shared_ptr<AgentClient>>& agents,
                    const SuperviseOptions& options);

}  // namespace distkit::launch
