// The supervisor's decisions (see supervisor_policy.hpp; the rules are the
// contract in supervisor.hpp). The message texts are part of distlaunch's
// output that users and tests read: change them only on purpose.
#include "distkit/launch/supervisor_policy.hpp"

#include <algorithm>
#include <csignal>

#include "distkit/launch/rank_request.hpp"
#include "distkit/util/signal_names.hpp"

namespace distkit::launch {

namespace {

using std::chrono::milliseconds;

// How long a rank told to stop may take before its command is aborted,
// beyond the grace it gives its rank between TERM and KILL.
constexpr milliseconds kStopMargin{2000};
// After a second signal the ranks get KILL at once, so the wait is short.
constexpr milliseconds kKillWait{500};
// A command that outlives its abort is aborted again this much later.
constexpr std::chrono::hours kAbortRetry{1};
// A rank killed by a signal no peer sends (KILL, SEGV, ABRT...) that ends
// within this long of the first failure is taken as the cause instead:
// across hosts, its neighbours' reaction to the lost peer (exit 1, SIGPIPE)
// can reach the launcher a few milliseconds before it does.
constexpr milliseconds kCauseWindow{100};

// A rank killed by signal N is reported as 128+N, as a shell does.
bool hard_signal(const ssh::ExitInfo& e) {
  if (!e.error.empty()) return false;
  const int sig = e.signal ? e.signal : e.exit_status > 128 ? e.exit_status - 128 : 0;
  return sig == SIGKILL || sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
         sig == SIGABRT;
}

// Heartbeats never come faster (the supervisor once polled every 100 ms), so
// that a period of 0 cannot make the wiring's loop spin.
constexpr milliseconds kMinHeartbeatPeriod{100};

PolicyAction note(std::string text) {
  return {.kind = PolicyAction::Kind::note, .text = std::move(text)};
}

}  // namespace

std::string describe_exit(const ssh::ExitInfo& e) {
  if (!e.error.empty()) return "lost its connection (" + e.error + ")";
  if (e.signal) return "was killed by signal " + std::to_string(e.signal);
  return "exited with status " + std::to_string(e.exit_status);
}

SupervisorPolicy::SupervisorPolicy(std::vector<RankName> ranks, PolicySettings settings)
    : s_(settings), stall_(ranks, settings.stall_limit) {
  s_.heartbeat_period = std::max(s_.heartbeat_period, kMinHeartbeatPeriod);
  for (auto& r : ranks) ranks_.push_back({std::move(r)});
}

void SupervisorPolicy::job_started(Time now) {
  started_ = now;
}

void SupervisorPolicy::ranks_started(Time now) {
  running_ = true;
  next_heartbeat_ = now + s_.heartbeat_period;
  stall_.start(now);
}

bool SupervisorPolicy::all_done() const {
  return std::all_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return r.exited; });
}

void SupervisorPolicy::fail(int code, std::string reason) {
  if (!reason_.empty()) return;  // the first cause stands
  exit_code_ = code;
  reason_ = std::move(reason);
}

// `a` for every rank still running, each with its rank.
void SupervisorPolicy::for_live(PolicyAction a, Actions& out) {
  for (size_t i = 0; i < ranks_.size(); ++i)
    if (!ranks_[i].exited) {
      a.rank = i;
      out.push_back(a);
    }
}

void SupervisorPolicy::send_live(const std::string& frame, bool stop, const std::string& what,
                                 Actions& out) {
  for (auto& r : ranks_)
    if (stop && !r.exited) r.stopped = true;
  for_live({.kind = PolicyAction::Kind::send, .frame = frame, .stop = stop, .text = what}, out);
}

// TERM to every running rank; its agent KILLs the rank after the grace.
void SupervisorPolicy::stop_all(Time now, Actions& out) {
  stopping_ = true;
  send_live(frame::terminate(), true, "told to stop (TERM, KILL after the grace)", out);
  hard_deadline_ = now + s_.grace + kStopMargin;
}

SupervisorPolicy::Actions SupervisorPolicy::exited(std::vector<RankExit> exits, Time now) {
  std::ranges::stable_sort(exits, {}, &RankExit::end);
  Actions out;
  for (const auto& e : exits) exited_one(e, now, out);
  maybe_stop_now(now, out);  // the stacks the stop waits for may be all that is left
  return out;
}

void SupervisorPolicy::exited_one(const RankExit& e, Time now, Actions& out) {
  Rank& r = ranks_[e.rank];
  if (r.exited) return;
  r.exited = true;
  stall_.ended(e.rank);
  if (e.exit.ok()) {
    // A peer that left early may leave the others waiting for it forever.
    if (!window_deadline_ && s_.exit_window.count() > 0) window_deadline_ = now + s_.exit_window;
    return;
  }
  // The likelier cause than the first failure, if it came just after it
  // (kCauseWindow; never one our own KILL, after the grace, could make).
  if (cause_ && !hard_signal(cause_->exit) && hard_signal(e.exit) && !interrupted() &&
      e.end - cause_->end < std::min(kCauseWindow, s_.grace)) {
    cause_ = e;
    exit_code_ = e.exit.shell_status();
    reason_ = "rank " + std::to_string(r.name.rank) + " on " + r.name.host + " " +
              describe_exit(e.exit) + ", just after; taken as the cause";
    out.push_back(note("distlaunch: error: " + reason_));
    return;
  }
  // A rank we told to stop failing is the stop's effect, not a cause.
  if (stopping_ && r.stopped) return;
  if (reason_.empty()) {
    auto live = std::ranges::count(ranks_, false, &Rank::exited);
    fail(e.exit.shell_status(), "rank " + std::to_string(r.name.rank) + " on " + r.name.host + " " +
                                    describe_exit(e.exit) + "; stopping the other " +
                                    std::to_string(live) + " running rank(s)");
    cause_ = e;
    out.push_back(note("distlaunch: error: " + reason_));
  }
  if (!stopping_) stop_all(now, out);
}

SupervisorPolicy::Actions SupervisorPolicy::signal(int sig, Time now) {
  Actions out;
  final_stacks_ = false;  // a user's signal does not wait for stacks
  if (signal_ == 0) {
    out.push_back(note("distlaunch: SIG" + signal_name(sig) +
                       ": forwarded to every rank; again to kill them at once"));
    forward(sig, now, out);
  } else if (!killed_) {
    out.push_back(note("distlaunch: killing every rank now"));
    send_live(frame::kill(), true, "told to stop now (KILL)", out);  // stopping_ since the first
    hard_deadline_ = now + kKillWait;
    killed_ = true;
  }
  return out;
}

SupervisorPolicy::Actions SupervisorPolicy::output_closed(Time now) {
  Actions out;
  if (signal_ == 0) {
    final_stacks_ = false;
    forward(SIGPIPE, now, out);
  }
  return out;
}

// The ranks get the signal itself first, the chance to end as they would if
// run by hand; TERM follows after the grace.
void SupervisorPolicy::forward(int sig, Time now, Actions& out) {
  signal_ = sig;
  fail(128 + sig, "interrupted by SIG" + signal_name(sig) + "; stopping every rank");
  stopping_ = true;
  send_live(frame::signal(signal_name(sig)), false, "sent SIG" + signal_name(sig) + " (forwarded)",
            out);
  soft_deadline_ = now + s_.grace;
  hard_deadline_ = *soft_deadline_ + s_.grace + kStopMargin;
}

SupervisorPolicy::Actions SupervisorPolicy::tick(Time now) {
  Actions out;
  if (running_ && now >= next_heartbeat_) {
    send_live(frame::heartbeat(), false, "", out);
    next_heartbeat_ = now + s_.heartbeat_period;
  }
  if (soft_deadline_ && now >= *soft_deadline_) {
    soft_deadline_.reset();
    stop_all(now, out);
  }
  if (!stopping_ && s_.timeout.count() > 0 && now - started_ >= s_.timeout) {
    fail(1, "job: timed out after " + std::to_string(s_.timeout.count() / 1000) +
                " s; stopping every rank");
    out.push_back(note("distlaunch: error: " + reason_));
    stop_after_stacks("--timeout", now, out);
  }
  check_stall(now, out);
  if (final_stacks_ && now >= stacks_deadline_) {
    std::string missing;
    for (const auto& r : ranks_)
      if (!r.exited && r.stacks_pending)
        missing += (missing.empty() ? "" : ", ") + std::to_string(r.name.rank);
    if (!missing.empty())
      out.push_back(note("distlaunch: no stacks from rank(s) " + missing + " within " +
                         std::to_string(s_.stack_wait.count() / 1000) + " s; stopping anyway"));
    final_stacks_ = false;
    stop_all(now, out);
  }
  if (!stopping_ && window_deadline_ && now >= *window_deadline_) {
    fail(1, "job: ranks still running " + std::to_string(s_.exit_window.count() / 1000) +
                " s after another rank finished; stopping them (see --exit-window)");
    out.push_back(note("distlaunch: error: " + reason_));
    stop_all(now, out);
  }
  if (stopping_ && !final_stacks_ && now >= hard_deadline_) {
    // The agents did not finish stopping their ranks in time.
    for_live({.kind = PolicyAction::Kind::abort}, out);
    hard_deadline_ = now + kAbortRetry;
  }
  return out;
}

SupervisorPolicy::Time SupervisorPolicy::next_deadline() const {
  Time next = Time::max();
  if (running_) next = std::min(next, next_heartbeat_);
  if (soft_deadline_) next = std::min(next, *soft_deadline_);
  if (!stopping_ && s_.timeout.count() > 0) next = std::min(next, started_ + s_.timeout);
  if (!stopping_ && window_deadline_) next = std::min(next, *window_deadline_);
  if (running_ && !stopping_ && !stall_reported_) next = std::min(next, stall_.deadline());
  if (final_stacks_) next = std::min(next, stacks_deadline_);
  if (stopping_ && !final_stacks_) next = std::min(next, hard_deadline_);
  return next;
}

void SupervisorPolicy::ask_stacks(const std::string& why, bool final, Actions& out) {
  for (auto& r : ranks_)
    if (final && !r.exited) r.stacks_pending = r.stopped = true;
  for_live({.kind = PolicyAction::Kind::stacks, .stop = final, .text = why}, out);
}

// The job stops (its reason already set): every running rank's stacks
// first, then TERM once they came or stacks_deadline_ passed. The ranks
// count as stopped from here: one that ends meanwhile (a Python rank
// stopped by faulthandler's SIGABRT) is not a new cause.
void SupervisorPolicy::stop_after_stacks(const std::string& why, Time now, Actions& out) {
  stopping_ = true;
  final_stacks_ = true;
  stacks_deadline_ = now + s_.stack_wait;
  ask_stacks(why, true, out);
  maybe_stop_now(now, out);
}

void SupervisorPolicy::maybe_stop_now(Time now, Actions& out) {
  if (!final_stacks_) return;
  for (const auto& r : ranks_)
    if (!r.exited && r.stacks_pending) return;
  final_stacks_ = false;
  stop_all(now, out);
}

void SupervisorPolicy::check_stall(Time now, Actions& out) {
  if (!running_ || stopping_ || stall_reported_ || now < stall_.deadline()) return;
  for (const auto& line : stall_.report(now)) out.push_back(note("distlaunch: " + line));
  if (s_.on_stall == OnStall::dump) {
    stall_reported_ = true;
    ask_stacks("stall", false, out);
    return;
  }
  stalled_ = true;
  fail(kStallExitCode, "job: no rank made progress for " +
                           std::to_string(s_.stall_limit.count() / 1000) +
                           " s (--stall-timeout); stopping every rank");
  out.push_back(note("distlaunch: error: " + reason_));
  stop_after_stacks("stall", now, out);
}

SupervisorPolicy::Actions SupervisorPolicy::progress_resumed() {
  if (!stall_reported_ || stopping_) return {};
  stall_reported_ = false;
  return {note("distlaunch: progress resumed")};
}

SupervisorPolicy::Actions SupervisorPolicy::output(size_t rank, Time now) {
  stall_.output(rank, now);
  return progress_resumed();
}

SupervisorPolicy::Actions SupervisorPolicy::fed(size_t rank, Time now) {
  stall_.fed(rank, now);
  return progress_resumed();
}

SupervisorPolicy::Actions SupervisorPolicy::sampled(size_t rank, const ProgressSample& s,
                                                    Time now) {
  auto before = stall_.last_progress();
  stall_.sampled(rank, s, now);
  return stall_.last_progress() > before ? progress_resumed() : Actions{};
}

SupervisorPolicy::Actions SupervisorPolicy::dump_requested(Time) {
  Actions out;
  if (!final_stacks_) ask_stacks("SIGQUIT", false, out);
  return out;
}

SupervisorPolicy::Actions SupervisorPolicy::health_failed(const std::string& what, Time now) {
  Actions out;
  if (stopping_) return out;
  stalled_ = true;
  fail(kStallExitCode, "job: the health check failed (" + what + "); stopping every rank");
  out.push_back(note("distlaunch: error: " + reason_));
  stop_after_stacks("health check", now, out);
  return out;
}

SupervisorPolicy::Actions SupervisorPolicy::stacks_came(size_t rank, Time now) {
  Actions out;
  ranks_[rank].stacks_pending = false;
  maybe_stop_now(now, out);
  return out;
}

}  // namespace distkit::launch
