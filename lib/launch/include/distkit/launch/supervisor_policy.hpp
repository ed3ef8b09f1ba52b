// The supervisor's decisions without its I/O, so that they can be tested
// with a fake clock and scripted events instead of real processes and sleeps.
// supervisor.cpp (the wiring) feeds it what happened, with the time it
// happened by its steady clock, and carries out the actions it returns; the
// rules are the contract in supervisor.hpp. No threads, clock reads or I/O
// here: the same events at the same times give the same actions.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

struct PolicySettings {
  std::chrono::milliseconds grace{3000};         // WrapperSettings::grace
  std::chrono::milliseconds timeout{0};          // 0: none
  std::chrono::milliseconds exit_window{60000};  // 0: off
  std::chrono::milliseconds heartbeat_period{1000};
};

// One thing for the wiring to do. Ranks are indexes into the plan's ranks.
struct PolicyAction {
  enum class Kind {
    send,   // write `frame` to the rank's wrapper, if its command still runs
    abort,  // abort the rank's command (and kill its group if it is local)
    note,   // print `text` and a newline on the job's stderr
  };
  Kind kind = Kind::note;
  size_t rank = 0;
  std::string frame;  // send: frame::heartbeat(), frame::terminate(), ...
  bool stop = false;  // send: the frame tells the rank to stop (T or K)
  std::string text;   // note
};

// How a rank ended, as the job's reason says it: "exited with status 3",
// "was killed by signal 9", "lost its connection (...)".
std::string describe_exit(const ssh::ExitInfo& e);

class SupervisorPolicy {
 public:
  using Time = std::chrono::steady_clock::time_point;
  using Actions = std::vector<PolicyAction>;

  struct RankName {
    int rank = 0;
    std::string host;
  };
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
  Actions exited(size_t rank, const ssh::ExitInfo& exit, Time now);
  // SIGINT, SIGTERM or SIGHUP to the launcher.
  Actions signal(int sig, Time now);
  // Deadlines due at `now`: heartbeats, grace, timeout, exit window, abort.
  Actions tick(Time now);

  int exit_code() const { return exit_code_; }
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
  };

  void exited_one(const RankExit& e, Time now, Actions& out);
  void send_live(const std::string& frame, bool stop, Actions& out);
  void stop_all(const std::string& frame, Time now, Actions& out);
  void fail(int code, std::string reason);

  std::vector<Rank> ranks_;
  PolicySettings s_;
  int exit_code_ = 0;
  std::string reason_;
  bool stopping_ = false;
  int signal_ = 0;        // the first signal received
  bool killed_ = false;   // a second signal killed every rank
  bool running_ = false;  // ranks_started() was called
  Time started_, next_heartbeat_, hard_deadline_, soft_deadline_, window_deadline_;
  bool soft_pending_ = false, window_open_ = false;
};

}  // namespace distkit::launch
