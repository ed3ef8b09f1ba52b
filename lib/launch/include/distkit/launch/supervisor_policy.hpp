// The supervisor's decisions without its I/O, so that they can be tested
// with a fake clock and scripted events instead of real processes and sleeps.
// supervisor.cpp (the wiring) feeds it what happened, with the time it
// happened by its steady clock, and carries out the actions it returns; the
// rules are the contract in supervisor.hpp. No threads, clock reads or I/O
// here: the same events at the same times give the same actions.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "distkit/launch/agent_protocol.hpp"
#include "distkit/launch/stall_watch.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

// What a stall does (--on-stall): stop the job, or only report it.
enum class OnStall { abort, dump };

// The job's status when --on-stall=abort stopped it: as timeout(1) has it.
inline constexpr int kStallExitCode = 124;

struct PolicySettings {
  std::chrono::milliseconds grace{3000};         // RankSettings::grace
  std::chrono::milliseconds timeout{0};          // 0: none
  std::chrono::milliseconds exit_window{60000};  // 0: off
  std::chrono::milliseconds heartbeat_period{
      static_cast<long>(kHeartbeatInterval * 1000)};  // agent_protocol.hpp
  std::chrono::milliseconds stall_limit{0};           // --stall-timeout; 0: off
  OnStall on_stall = OnStall::abort;
  // How long the stacks taken before a stop may take to come (the agents
  // bound their dumps to kStackDumpLimit; the rest is the way back).
  std::chrono::milliseconds stack_wait{25000};
};

// One thing for the wiring to do. Ranks are indexes into the plan's ranks.
struct PolicyAction {
  enum class Kind {
    send,    // write `frame` to the rank, if its command still runs
    abort,   // abort the rank's command (and kill its group if it is local)
    note,    // print `text` and a newline on the job's stderr
    stacks,  // ask the rank's host for its stacks (`stop`: the job stops next)
  };
  Kind kind = Kind::note;
  size_t rank = 0;
  std::string frame{};  // send: frame::heartbeat(), frame::terminate(), ...
  bool stop = false;    // send: the frame tells the rank to stop (T or K); stacks: L, not W
  // note: the line; stacks: why they are taken ("stall", "SIGQUIT", ...);
  // send: what the frame asks, for the debug log ("" for heartbeats).
  std::string text{};
};

// How a rank ended, as the job's reason says it: "exited with status 3",
// "was killed by signal 9", "lost its connection (...)".
std::string describe_exit(const ssh::ExitInfo& e);

class SupervisorPolicy {
 public:
  using Time = std::chrono::steady_clock::time_point;
  using Actions = std::vector<PolicyAction>;

  using RankName = StallWatch::RankName;
  struct RankExit {
    size_t rank = 0;
    ssh::ExitInfo exit;
    Time end;  // when it ended: orders exits that are learned together
  };

  SupervisorPolicy(std::vector<RankName> ranks, PolicySettings settings);

  // Before the ranks start: the timeout counts from here.
  void job_started(Time now);
  // Every rank was started (and sent its first heartbeat): heartbeats follow.
  void ranks_started(Time now);
  // Exits learned at `now`, taken in the order they ended.
  Actions exited(std::vector<RankExit> exits, Time now);
  // SIGINT, SIGTERM or SIGHUP to the launcher.
  Actions signal(int sig, Time now);
  // The launcher's standard output was closed (`distlaunch ... | head`):
  // as SIGPIPE, but silent, as a program writing to the pipe would end.
  Actions output_closed(Time now);
  // Deadlines due at `now`: heartbeats, grace, timeout, exit window,
  // stall, the wait for stacks, abort.
  Actions tick(Time now);
  // Progress (stall_watch.hpp): a line of output, stdin sent, a sample.
  Actions output(size_t rank, Time now);
  Actions fed(size_t rank, Time now);
  Actions sampled(size_t rank, const ProgressSample& s, Time now);
  // SIGQUIT: every running rank's stacks; the job goes on.
  Actions dump_requested(Time now);
  // A rank's stacks came (or its host cannot give any).
  Actions stacks_came(size_t rank, Time now);
  // The health check (--health-cmd) failed: `what` says how. As a stall.
  Actions health_failed(const std::string& what, Time now);

  int exit_code() const { return exit_code_; }
  // The job was stopped on a stall or a failed health check.
  bool stalled() const { return stalled_; }
  // The job was stopped by a signal to the launcher (a user's Ctrl-C), or
  // its standard output was closed.
  bool interrupted() const { return signal_ != 0; }
  const std::string& reason() const { return reason_; }  // "" when ok
  bool stopping() const { return stopping_; }
  // Told to stop. RankResult::stopped is the wiring's: only when the frame
  // reached a command still running (its end may not have been fed yet).
  bool stopped(size_t rank) const { return ranks_[rank].stopped; }
  bool has_exited(size_t rank) const { return ranks_[rank].exited; }
  bool all_done() const;
  // When tick() next has something to do (Time::max() before ranks_started).
  Time next_deadline() const;

 private:
  struct Rank {
    RankName name;
    bool exited = false;
    bool stopped = false;
    bool stacks_pending = false;  // asked before the stop, not come yet
  };

  void exited_one(const RankExit& e, Time now, Actions& out);
  void for_live(PolicyAction a, Actions& out);
  void send_live(const std::string& frame, bool stop, const std::string& what, Actions& out);
  void stop_all(Time now, Actions& out);
  void forward(int sig, Time now, Actions& out);
  void fail(int code, std::string reason);
  void ask_stacks(const std::string& why, bool final, Actions& out);
  void stop_after_stacks(const std::string& why, Time now, Actions& out);
  void maybe_stop_now(Time now, Actions& out);
  void check_stall(Time now, Actions& out);
  Actions progress_resumed();

  std::vector<Rank> ranks_;
  PolicySettings s_;
  int exit_code_ = 0;
  std::string reason_;
  bool stopping_ = false;
  int signal_ = 0;        // the first signal received
  bool killed_ = false;   // a second signal killed every rank
  bool running_ = false;  // ranks_started() was called
  Time started_, next_heartbeat_, hard_deadline_;
  std::optional<Time> soft_deadline_, window_deadline_;  // the TERM after a signal; --exit-window
  StallWatch stall_;
  // A stall reported under --on-stall=dump: the next is reported only
  // after some progress.
  bool stall_reported_ = false;
  // Stacks asked before a stop: the stop (TERM) waits for them, or for
  // stacks_deadline_.
  bool final_stacks_ = false;
  Time stacks_deadline_;
  bool stalled_ = false;
  std::optional<RankExit> cause_;  // the rank failure the job's code is from
};

}  // namespace distkit::launch
