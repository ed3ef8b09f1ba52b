// The supervisor's decisions with a fake clock and scripted events: every
// rule of supervisor.hpp's contract at the exact instant it applies, without
// processes or sleeps (supervisor_test.cpp keeps the real-process wiring).
#include <csignal>

#include "catch.hpp"
#include "distkit/launch/rank_request.hpp"
#include "distkit/launch/supervisor_policy.hpp"

using namespace distkit::launch;
using namespace std::chrono_literals;
using Kind = PolicyAction::Kind;
using Time = SupervisorPolicy::Time;
using Ranks = std::vector<size_t>;
using distkit::ssh::ExitInfo;

namespace {

// The fake clock: t(5s) is five seconds after the job started.
const Time kStart = Time{} + 24h;
Time t(std::chrono::milliseconds since_start) {
  return kStart + since_start;
}

PolicySettings settings() {
  PolicySettings s;
  s.grace = 3s;
  s.exit_window = 60s;
  s.heartbeat_period = 1s;
  return s;
}

// `n` ranks on hosts h0, h1, ..., started at t(0).
SupervisorPolicy started(size_t n, PolicySettings s = settings()) {
  std::vector<SupervisorPolicy::RankName> names;
  for (size_t i = 0; i < n; ++i) names.push_back({static_cast<int>(i), "h" + std::to_string(i)});
  SupervisorPolicy p(names, s);
  p.job_started(t(0s));
  p.ranks_started(t(0s));
  return p;
}

ExitInfo status(int code) {
  ExitInfo e;
  e.exit_status = code;
  return e;
}
ExitInfo killed_by(int sig) {
  ExitInfo e;
  e.signal = sig;
  return e;
}
ExitInfo lost(std::string why) {
  ExitInfo e;
  e.error = std::move(why);
  return e;
}

// One rank's exit, learned when it happened.
SupervisorPolicy::Actions exited(SupervisorPolicy& p, size_t rank, const ExitInfo& e, Time now) {
  return p.exited({SupervisorPolicy::RankExit{rank, e, now}}, now);
}

// The ranks `frame` is sent to, in order.
Ranks sent(const SupervisorPolicy::Actions& actions, const std::string& frame) {
  Ranks out;
  for (const auto& a : actions)
    if (a.kind == Kind::send && a.frame == frame) out.push_back(a.rank);
  return out;
}
Ranks aborted(const SupervisorPolicy::Actions& actions) {
  Ranks out;
  for (const auto& a : actions)
    if (a.kind == Kind::abort) out.push_back(a.rank);
  return out;
}
std::vector<std::string> notes(const SupervisorPolicy::Actions& actions) {
  std::vector<std::string> out;
  for (const auto& a : actions)
    if (a.kind == Kind::note) out.push_back(a.text);
  return out;
}
Ranks stacks_asked(const SupervisorPolicy::Actions& actions, bool final) {
  Ranks out;
  for (const auto& a : actions)
    if (a.kind == Kind::stacks && a.stop == final) out.push_back(a.rank);
  return out;
}
// The actions other than heartbeats.
SupervisorPolicy::Actions decisions(SupervisorPolicy::Actions actions) {
  std::erase_if(actions, [](const PolicyAction& a) { return a.frame == frame::heartbeat(); });
  return actions;
}

}  // namespace

TEST_CASE("the first rank to fail sets the exit code and stops the others", "[launch][policy]") {
  auto p = started(4);
  auto a = exited(p, 2, status(3), t(5s));
  const std::string reason =
      "rank 2 on h2 exited with status 3; stopping the other 3 running rank(s)";
  CHECK(p.exit_code() == 3);
  CHECK(p.reason() == reason);
  CHECK(notes(a) == std::vector<std::string>{"distlaunch: error: " + reason});
  CHECK(sent(a, frame::terminate()) == Ranks{0, 1, 3});
  for (const auto& x : a)
    if (x.kind == Kind::send) CHECK(x.stop);
  CHECK(a.front().kind == Kind::note);  // the reason is printed before the stop
  CHECK(p.stopping());
  CHECK(p.stopped(0));
  CHECK(p.stopped(1));
  CHECK_FALSE(p.stopped(2));
  CHECK(p.stopped(3));
  CHECK_FALSE(p.all_done());
}

TEST_CASE("a rank killed by signal N gives 128+N, a lost connection 255", "[launch][policy]") {
  auto p = started(3);
  exited(p, 1, killed_by(SIGKILL), t(1s));
  CHECK(p.exit_code() == 137);
  CHECK(p.reason() == "rank 1 on h1 was killed by signal 9; stopping the other 2 running rank(s)");

  auto q = started(2);
  exited(q, 0, lost("could not start: no route"), t(1s));
  CHECK(q.exit_code() == 255);
  CHECK(q.reason() ==
        "rank 0 on h0 lost its connection (could not start: no route); stopping the other 1 "
        "running rank(s)");
}

TEST_CASE("ranks told to stop that then fail are not the cause", "[launch][policy]") {
  auto p = started(3);
  exited(p, 0, status(5), t(1s));
  auto reason = p.reason();
  CHECK(exited(p, 1, killed_by(SIGTERM), t(2s)).empty());
  CHECK(exited(p, 2, lost("closed"), t(2s)).empty());
  CHECK(p.exit_code() == 5);
  CHECK(p.reason() == reason);
  CHECK(p.all_done());
}

TEST_CASE("exits learned together are taken in the order they ended", "[launch][policy]") {
  auto p = started(4);
  std::vector<SupervisorPolicy::RankExit> batch{{1, status(4), t(2s)}, {3, status(5), t(1s)}};
  auto a = p.exited(batch, t(3s));
  CHECK(p.exit_code() == 5);
  CHECK(p.reason() == "rank 3 on h3 exited with status 5; stopping the other 3 running rank(s)");
  CHECK(notes(a).size() == 1);
  // Rank 1 had not been seen to end when the stop went out; the wiring does
  // not write to a command that ended.
  CHECK(sent(a, frame::terminate()) == Ranks{0, 1, 2});
}

TEST_CASE("an exit 0 opens the exit window; ranks running when it closes are stopped, exit 1",
          "[launch][policy]") {
  auto p = started(3);
  p.tick(t(10s));
  CHECK(exited(p, 0, status(0), t(10s)).empty());
  CHECK(p.exit_code() == 0);
  CHECK(p.next_deadline() == t(11s));  // the heartbeat comes first
  p.tick(t(11s));
  CHECK(decisions(p.tick(t(69999ms))).empty());
  CHECK(p.next_deadline() == t(70s));
  auto a = p.tick(t(70s));
  const std::string reason =
      "job: ranks still running 60 s after another rank finished; stopping them (see "
      "--exit-window)";
  CHECK(p.exit_code() == 1);
  CHECK(p.reason() == reason);
  CHECK(notes(a) == std::vector<std::string>{"distlaunch: error: " + reason});
  CHECK(sent(a, frame::terminate()) == Ranks{1, 2});
  CHECK(p.stopped(1));
  CHECK(p.stopped(2));
}

TEST_CASE("the exit window counts from the first exit 0 only", "[launch][policy]") {
  auto p = started(3);
  exited(p, 0, status(0), t(10s));
  exited(p, 1, status(0), t(50s));
  p.tick(t(69s));
  CHECK(p.exit_code() == 0);
  auto a = p.tick(t(70s));
  CHECK(sent(a, frame::terminate()) == Ranks{2});
  CHECK(p.exit_code() == 1);
}

TEST_CASE("an exit window of 0 lets the other ranks run as long as they like", "[launch][policy]") {
  auto s = settings();
  s.exit_window = 0s;
  auto p = started(2, s);
  exited(p, 0, status(0), t(1s));
  for (auto at = t(2s); at < t(2h); at += 10min) CHECK(decisions(p.tick(at)).empty());
  CHECK_FALSE(p.stopping());
  exited(p, 1, status(0), t(2h));
  CHECK(p.all_done());
  CHECK(p.exit_code() == 0);
  CHECK(p.reason().empty());
}

TEST_CASE("every rank exiting 0 within the window is a success", "[launch][policy]") {
  auto p = started(3);
  exited(p, 2, status(0), t(1s));
  p.exited({{0, status(0), t(5s)}, {1, status(0), t(4s)}}, t(5s));
  CHECK(p.all_done());
  CHECK(p.exit_code() == 0);
  CHECK(p.reason().empty());
  CHECK_FALSE(p.stopping());
}

TEST_CASE("the job is done only once every rank's exit is known", "[launch][policy]") {
  auto p = started(3);
  CHECK_FALSE(p.all_done());
  exited(p, 0, status(0), t(1s));
  exited(p, 2, status(1), t(2s));
  CHECK_FALSE(p.all_done());
  CHECK_FALSE(p.has_exited(1));
  exited(p, 1, killed_by(SIGTERM), t(3s));
  CHECK(p.has_exited(1));
  CHECK(p.all_done());
}

TEST_CASE(
    "the job timeout, counted from the job's start, takes the stacks, stops every rank "
    "and exits 1",
    "[launch][policy]") {
  auto s = settings();
  s.timeout = 90s;
  std::vector<SupervisorPolicy::RankName> names{{0, "h0"}, {1, "h1"}};
  SupervisorPolicy p(names, s);
  p.job_started(t(0s));
  p.ranks_started(t(20s));  // starting took a while: it counts too
  CHECK(decisions(p.tick(t(89999ms))).empty());
  auto a = p.tick(t(90s));
  CHECK(p.exit_code() == 1);
  CHECK(p.reason() == "job: timed out after 90 s; stopping every rank");
  CHECK(notes(a) == std::vector<std::string>{"distlaunch: error: " + p.reason()});
  // The stacks first (L: the job stops next); TERM once both came.
  CHECK(stacks_asked(a, true) == Ranks{0, 1});
  CHECK(sent(a, frame::terminate()).empty());
  CHECK(p.stopped(0));  // a rank that ends meanwhile is not a new cause
  CHECK(sent(p.stacks_came(1, t(91s)), frame::terminate()).empty());
  CHECK(sent(p.stacks_came(0, t(92s)), frame::terminate()) == Ranks{0, 1});

  s.timeout = 500ms;  // whole seconds in the text
  auto q = started(1, s);
  q.tick(t(500ms));
  CHECK(q.reason() == "job: timed out after 0 s; stopping every rank");
}

TEST_CASE("the timeout and the exit window do not replace an earlier cause", "[launch][policy]") {
  auto s = settings();
  s.timeout = 10s;
  auto p = started(3, s);
  exited(p, 0, status(0), t(1s));
  exited(p, 1, status(2), t(2s));
  auto a = p.tick(t(100s));
  CHECK(p.exit_code() == 2);
  CHECK(notes(a).empty());
  CHECK(sent(a, frame::terminate()).empty());
}

TEST_CASE("a rank that does not end within grace + 2 s of being told to stop is aborted, once",
          "[launch][policy]") {
  auto p = started(4);
  exited(p, 0, status(1), t(1s));
  exited(p, 1, killed_by(SIGTERM), t(2s));  // ends in time
  for (auto at = t(1s); at <= t(5s); at += 1s) CHECK(aborted(p.tick(at)).empty());
  CHECK(aborted(p.tick(t(5999ms))).empty());
  CHECK(p.next_deadline() == t(6s));
  auto a = p.tick(t(6s));
  CHECK(aborted(a) == Ranks{2, 3});
  for (auto at = t(6500ms); at < t(600s); at += 500ms) CHECK(aborted(p.tick(at)).empty());
  // A command that outlives its abort by an hour is aborted again.
  CHECK(aborted(p.tick(t(6s) + 1h)) == Ranks{2, 3});
}

TEST_CASE("the first signal is forwarded to every live rank, TERM follows after the grace",
          "[launch][policy]") {
  auto p = started(3);
  exited(p, 2, status(0), t(1s));
  auto a = p.signal(SIGINT, t(2s));
  CHECK(notes(a) ==
        std::vector<std::string>{"distlaunch: SIGINT: forwarded to every rank; again to kill them "
                                 "at once"});
  CHECK(sent(a, frame::signal("INT")) == Ranks{0, 1});
  CHECK(p.exit_code() == 130);
  CHECK(p.reason() == "interrupted by SIGINT; stopping every rank");
  CHECK(p.stopping());
  CHECK_FALSE(p.stopped(0));  // the signal is not a stop: the rank may handle it
  CHECK(sent(p.tick(t(4999ms)), frame::terminate()).empty());
  CHECK(p.next_deadline() == t(5s));
  auto b = p.tick(t(5s));
  CHECK(sent(b, frame::terminate()) == Ranks{0, 1});
  CHECK(p.stopped(0));
  CHECK(aborted(p.tick(t(9999ms))).empty());
  CHECK(aborted(p.tick(t(10s))) == Ranks{0, 1});  // grace + 2 s after the TERM
}

TEST_CASE("ranks ending from the forwarded signal keep the interrupt as the cause",
          "[launch][policy]") {
  auto p = started(2);
  p.signal(SIGTERM, t(1s));
  CHECK(exited(p, 0, status(143), t(1100ms)).empty());
  CHECK(exited(p, 1, killed_by(SIGTERM), t(1200ms)).empty());
  CHECK(p.exit_code() == 143);
  CHECK(p.reason() == "interrupted by SIGTERM; stopping every rank");
  CHECK(p.all_done());
}

TEST_CASE("a second signal kills every rank at once and aborts them 500 ms later",
          "[launch][policy]") {
  auto p = started(3);
  p.tick(t(1s));
  p.signal(SIGINT, t(1s));
  exited(p, 0, status(130), t(1100ms));
  auto a = p.signal(SIGINT, t(1200ms));
  CHECK(notes(a) == std::vector<std::string>{"distlaunch: killing every rank now"});
  CHECK(sent(a, frame::kill()) == Ranks{1, 2});
  CHECK(p.stopped(1));
  CHECK(p.exit_code() == 130);  // the first signal's
  CHECK(p.next_deadline() == t(1700ms));
  CHECK(aborted(p.tick(t(1699ms))).empty());
  CHECK(aborted(p.tick(t(1700ms))) == Ranks{1, 2});
  CHECK(p.signal(SIGTERM, t(2s)).empty());  // a third signal adds nothing
  CHECK(p.exit_code() == 130);
}

TEST_CASE("a closed standard output is SIGPIPE to every live rank, silently; exit 141",
          "[launch][policy]") {
  auto p = started(3);
  exited(p, 1, status(0), t(1s));
  auto a = p.output_closed(t(2s));
  CHECK(notes(a).empty());  // a `| head` that has what it wanted is no error
  CHECK(sent(a, frame::signal("PIPE")) == Ranks{0, 2});
  CHECK(p.exit_code() == 141);
  CHECK(p.interrupted());                 // not restarted: the reader is gone
  CHECK(p.output_closed(t(3s)).empty());  // every later write fails too: once
  CHECK(sent(p.tick(t(5s)), frame::terminate()) == Ranks{0, 2});
  auto b = p.signal(SIGINT, t(6s));  // a Ctrl-C then kills at once
  CHECK(notes(b) == std::vector<std::string>{"distlaunch: killing every rank now"});
  CHECK(p.exit_code() == 141);
}

TEST_CASE("a signal after the job failed still reaches the ranks; the failure stays the cause",
          "[launch][policy]") {
  auto p = started(3);
  exited(p, 1, status(3), t(1s));
  auto reason = p.reason();
  auto a = p.signal(SIGHUP, t(2s));
  CHECK(p.exit_code() == 3);
  CHECK(p.reason() == reason);
  CHECK(notes(a) ==
        std::vector<std::string>{"distlaunch: SIGHUP: forwarded to every rank; again to kill them "
                                 "at once"});
  CHECK(sent(a, frame::signal("HUP")) == Ranks{0, 2});
  auto b = p.signal(SIGHUP, t(3s));
  CHECK(sent(b, frame::kill()) == Ranks{0, 2});
  CHECK(p.exit_code() == 3);
}

TEST_CASE("heartbeats go every period to the ranks still running, stopping or not",
          "[launch][policy]") {
  auto p = started(4);
  CHECK(p.next_deadline() == t(1s));
  CHECK(p.tick(t(999ms)).empty());
  CHECK(sent(p.tick(t(1s)), frame::heartbeat()) == Ranks{0, 1, 2, 3});
  exited(p, 1, status(0), t(1200ms));
  CHECK(p.tick(t(1500ms)).empty());
  CHECK(sent(p.tick(t(2s)), frame::heartbeat()) == Ranks{0, 2, 3});
  exited(p, 3, status(9), t(2500ms));
  CHECK(sent(p.tick(t(3s)), frame::heartbeat()) == Ranks{0, 2});
  CHECK(p.next_deadline() == t(4s));
}

TEST_CASE("heartbeats come at most every 100 ms, whatever the period", "[launch][policy]") {
  auto s = settings();
  s.heartbeat_period = 0s;
  auto p = started(1, s);
  CHECK(p.next_deadline() == t(100ms));
  CHECK(p.tick(t(50ms)).empty());
  CHECK(sent(p.tick(t(100ms)), frame::heartbeat()) == Ranks{0});
  CHECK(p.next_deadline() == t(200ms));
}

TEST_CASE("nothing is due before the ranks are started", "[launch][policy]") {
  SupervisorPolicy p({{0, "h0"}}, settings());
  p.job_started(t(0s));
  CHECK(p.next_deadline() == Time::max());
  CHECK(p.tick(t(10s)).empty());
}

TEST_CASE("ranks that end after the others do not change the outcome", "[launch][policy]") {
  auto p = started(3);
  exited(p, 0, status(4), t(1s));
  exited(p, 1, status(0), t(1500ms));  // finished its work as it was stopped
  CHECK(p.exit_code() == 4);
  // Neither the exit window it opened nor the abort's clock adds a cause.
  for (auto at = t(2s); at < t(200s); at += 1s) CHECK(notes(p.tick(at)).empty());
  CHECK(exited(p, 2, lost("gone"), t(200s)).empty());
  CHECK(p.exit_code() == 4);
  CHECK(p.all_done());
}

TEST_CASE("an exit reported twice counts once", "[launch][policy]") {
  auto p = started(2);
  exited(p, 0, status(0), t(1s));
  CHECK(exited(p, 0, status(7), t(2s)).empty());
  CHECK(p.exit_code() == 0);
  CHECK_FALSE(p.all_done());
}

namespace {

PolicySettings stall_settings(std::chrono::milliseconds limit, OnStall on = OnStall::abort) {
  auto s = settings();
  s.stall_limit = limit;
  s.on_stall = on;
  s.stack_wait = 20s;
  return s;
}

ProgressSample sample(long long io, long long cpu_ms, long long heartbeat = -1) {
  return {io, cpu_ms, heartbeat};
}

bool mentions(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& l : lines)
    if (l.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("no progress of any rank for the stall limit: report, stacks, then stop with 124",
          "[launch][policy][stall]") {
  auto p = started(2, stall_settings(5s));
  CHECK(p.next_deadline() == t(1s));  // the heartbeat first
  // Rank 0 is blocked (no CPU), rank 1 spins (a core busy): neither progresses.
  for (int i = 1; i <= 4; ++i) {
    p.sampled(0, sample(100, 10), t(std::chrono::seconds(i)));
    p.sampled(1, sample(200, 1000 * i), t(std::chrono::seconds(i)));
    CHECK(decisions(p.tick(t(std::chrono::seconds(i)))).empty());
  }
  p.output(0, t(2s));  // output is progress: the window restarts there
  CHECK(decisions(p.tick(t(6s))).empty());
  for (int i = 5; i <= 7; ++i) {
    p.sampled(0, sample(100, 10), t(std::chrono::seconds(i)));
    p.sampled(1, sample(200, 1000 * i), t(std::chrono::seconds(i)));
  }
  auto a = p.tick(t(7s));
  auto n = notes(a);
  REQUIRE(n.size() == 4);
  CHECK(n[0] ==
        "distlaunch: stall: no rank made progress for 5.0 s (no output, I/O, heartbeat or stdin); "
        "CPU over the window tells blocked from spinning:");
  CHECK(n[1] ==
        "distlaunch:   rank 0 on h0: last output 5.0 s ago, in the last 5.0 s: I/O 0 B, CPU 0.0 s "
        "(blocked)");
  CHECK(n[2] ==
        "distlaunch:   rank 1 on h1: no output yet, in the last 5.0 s: I/O 0 B, CPU 5.0 s "
        "(spinning)");
  CHECK(n[3] ==
        "distlaunch: error: job: no rank made progress for 5 s (--stall-timeout); "
        "stopping every rank");
  CHECK(p.exit_code() == kStallExitCode);
  CHECK(stacks_asked(a, true) == Ranks{0, 1});
  for (const auto& x : a)
    if (x.kind == Kind::stacks) CHECK(x.text == "stall");
  CHECK(sent(a, frame::terminate()).empty());
  // A rank ending meanwhile (faulthandler's SIGABRT) is the stop's effect.
  CHECK(sent(exited(p, 0, killed_by(SIGABRT), t(8s)), frame::terminate()).empty());
  CHECK(p.exit_code() == kStallExitCode);
  CHECK(sent(p.stacks_came(1, t(8s)), frame::terminate()) == Ranks{1});
}

TEST_CASE("I/O, heartbeats and stdin are progress; CPU alone is not", "[launch][policy][stall]") {
  SECTION("bytes read or written") {
    auto p = started(1, stall_settings(3s));
    for (int i = 1; i <= 10; ++i) {
      p.sampled(0, sample(4096 * i, 1000 * i), t(std::chrono::seconds(i)));
      CHECK(notes(p.tick(t(std::chrono::seconds(i)))).empty());
    }
  }
  SECTION("a heartbeat file touched") {
    auto p = started(1, stall_settings(3s));
    for (int i = 1; i <= 10; ++i) {
      p.sampled(0, sample(0, 0, 1000 * i), t(std::chrono::seconds(i)));
      CHECK(notes(p.tick(t(std::chrono::seconds(i)))).empty());
    }
  }
  SECTION("stdin sent to it") {
    auto p = started(1, stall_settings(3s));
    for (int i = 1; i <= 10; ++i) {
      p.fed(0, t(std::chrono::seconds(i)));
      CHECK(notes(p.tick(t(std::chrono::seconds(i)))).empty());
    }
  }
  SECTION("CPU only") {
    auto p = started(1, stall_settings(3s));
    for (int i = 1; i <= 3; ++i) p.sampled(0, sample(7, 1000 * i), t(std::chrono::seconds(i)));
    CHECK(mentions(notes(p.tick(t(3s))), "(spinning)"));
  }
}

TEST_CASE("one rank's progress keeps the whole job from stalling", "[launch][policy][stall]") {
  auto p = started(2, stall_settings(3s));
  for (int i = 1; i <= 10; ++i) {
    p.output(1, t(std::chrono::seconds(i)));
    CHECK(notes(p.tick(t(std::chrono::seconds(i)))).empty());
  }
  CHECK(p.exit_code() == 0);
}

TEST_CASE("a rank that has ended does not keep the job from stalling, nor is reported",
          "[launch][policy][stall]") {
  auto p = started(2, stall_settings(3s));
  exited(p, 1, status(0), t(1s));
  auto n = notes(p.tick(t(3s)));
  CHECK(mentions(n, "rank 0 on h0: no output yet; I/O and CPU not sampled"));
  CHECK_FALSE(mentions(n, "rank 1"));
}

TEST_CASE("--on-stall dump reports once per stall and goes on", "[launch][policy][stall]") {
  auto p = started(2, stall_settings(3s, OnStall::dump));
  auto a = p.tick(t(3s));
  CHECK(mentions(notes(a), "stall: no rank made progress for 3.0 s"));
  CHECK(stacks_asked(a, false) == Ranks{0, 1});
  CHECK(p.exit_code() == 0);
  CHECK_FALSE(p.stopping());
  CHECK(decisions(p.tick(t(10s))).empty());  // not again while nothing moves
  CHECK(notes(p.output(1, t(11s))) == std::vector<std::string>{"distlaunch: progress resumed"});
  CHECK(decisions(p.tick(t(13900ms))).empty());
  CHECK(mentions(notes(p.tick(t(14s))), "stall:"));  // a new stall
}

TEST_CASE("stacks that do not come hold the stop only for the stack wait",
          "[launch][policy][stall]") {
  auto s = stall_settings(2s);
  s.heartbeat_period = 1h;  // so that next_deadline() is the stop's
  auto p = started(2, s);
  p.tick(t(2s));
  CHECK(p.next_deadline() == t(22s));
  CHECK(sent(p.tick(t(21s)), frame::terminate()).empty());
  auto a = p.tick(t(22s));
  CHECK(notes(a) ==
        std::vector<std::string>{"distlaunch: no stacks from rank(s) 0, 1 within 20 s; stopping "
                                 "anyway"});
  CHECK(sent(a, frame::terminate()) == Ranks{0, 1});
  CHECK(p.next_deadline() == t(27s));  // then the usual grace + margin
}

TEST_CASE("SIGQUIT asks every running rank for its stacks and the job goes on",
          "[launch][policy][stall]") {
  auto p = started(3);
  exited(p, 2, status(0), t(1s));
  auto a = p.dump_requested(t(2s));
  CHECK(stacks_asked(a, false) == Ranks{0, 1});
  for (const auto& x : a)
    if (x.kind == Kind::stacks) CHECK(x.text == "SIGQUIT");
  CHECK_FALSE(p.stopping());
  CHECK(decisions(p.stacks_came(0, t(3s))).empty());
}

TEST_CASE("a signal during the wait for stacks does not wait for them", "[launch][policy][stall]") {
  auto p = started(1, stall_settings(2s));
  p.tick(t(2s));
  p.signal(SIGINT, t(3s));
  CHECK(sent(p.tick(t(6s)), frame::terminate()) == Ranks{0});  // after the grace, as always
}

TEST_CASE("no stall detection when the limit is 0", "[launch][policy][stall]") {
  auto p = started(1);
  CHECK(decisions(p.tick(t(1000s))).empty());
  CHECK(p.next_deadline() == t(1001s));  // the next heartbeat, no stall deadline
}

TEST_CASE("a failed health check is a stall: stacks, then stop with 124",
          "[launch][policy][stall]") {
  auto p = started(2);
  auto a = p.health_failed("'curl ...' exited with status 28", t(30s));
  CHECK(notes(a) == std::vector<std::string>{"distlaunch: error: job: the health check failed "
                                             "('curl ...' exited with status 28); stopping every "
                                             "rank"});
  CHECK(p.exit_code() == kStallExitCode);
  CHECK(p.stalled());
  CHECK(stacks_asked(a, true) == Ranks{0, 1});
  CHECK(decisions(p.health_failed("again", t(31s))).empty());  // once
}

TEST_CASE("a rank killed by SIGKILL just after a peer's exit 1 is the cause, not the peer",
          "[launch][policy]") {
  // Across hosts, the peers' reaction to a killed rank can arrive first.
  auto p = started(4);
  auto a = exited(p, 1, status(1), t(10s));
  CHECK(p.exit_code() == 1);
  auto b = p.exited({{2, killed_by(SIGKILL), t(10040ms)}, {3, status(1), t(10041ms)}}, t(10041ms));
  CHECK(p.exit_code() == 137);
  CHECK(p.reason() == "rank 2 on h2 was killed by signal 9, just after; taken as the cause");
  CHECK(notes(b) == std::vector<std::string>{"distlaunch: error: " + p.reason()});
  CHECK(sent(b, frame::terminate()).empty());  // the stop went out with the first failure

  SECTION("as its agent reports it: 128 + 9, after a peer's SIGPIPE (141)") {
    auto q = started(8);
    exited(q, 4, status(141), t(10s));
    exited(q, 5, status(137), t(10030ms));
    CHECK(q.exit_code() == 137);
    CHECK(q.reason() == "rank 5 on h5 exited with status 137, just after; taken as the cause");
  }
  SECTION("not later than the window") {
    auto q = started(2);
    exited(q, 0, status(1), t(10s));
    exited(q, 1, killed_by(SIGKILL), t(10100ms));
    CHECK(q.exit_code() == 1);
  }
  SECTION("nor a signal a stop makes") {
    auto q = started(2);
    exited(q, 0, status(1), t(10s));
    exited(q, 1, killed_by(SIGTERM), t(10010ms));
    CHECK(q.exit_code() == 1);
  }
}
