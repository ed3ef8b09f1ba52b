// The supervisor's wiring (contract in supervisor.hpp). Executor I/O threads
// only assemble lines, record exits and wake the loop through a pipe; one
// thread polls the signal pipe, the wake pipe and stdin, feeds what happened
// to the SupervisorPolicy (which takes every decision: fail fast, stop, kill,
// heartbeats) and carries out its actions. Stdin is forwarded here.
#include "distkit/launch/supervisor.hpp"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/output.hpp"
#include "distkit/launch/supervisor_policy.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/posix.hpp"
#include "distkit/util/signal_names.hpp"
#include "distkit/util/signal_pipe.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::launch {

namespace {

using std::chrono::milliseconds;
using Steady = std::chrono::steady_clock;

// Every input wakes poll() (exits through the wake pipe, signals, stdin) and
// the policy says when its next deadline is; this bounds the cost of a wake-up
// missed all the same.
constexpr milliseconds kMaxPollWait{1000};

struct RankState {
  std::unique_ptr<AgentRankCommand> cmd;
  LineAssembler out_lines, err_lines;
  RankResult result;
  Steady::time_point ended;       // when on_exit ran; orders exits
  std::atomic<bool> done{false};  // set by on_exit, after result and ended
  bool handled = false;           // main thread only: given to the policy
  bool wants_stdin = true;
  std::atomic<bool> output{false};  // a line came since the loop last looked
  std::string stacks_why;           // main thread: why stacks were asked
};

// What the host agents and the health check reported (other threads), as
// the loop's work (main thread): what it tells the policy at `now`.
using Report = std::function<SupervisorPolicy::Actions(Steady::time_point now)>;

long long pair_number(const agent_frames::Pairs& p, std::string_view key) {
  return parse_digits(agent_frames::pair_value(p, key), 18).value_or(-1);
}

std::vector<std::string> rank_hosts(const Plan& plan) {
  std::vector<std::string> hosts;
  for (const auto& r : plan.ranks) hosts.push_back(r.host);
  return hosts;
}

std::vector<SupervisorPolicy::RankName> rank_names(const Plan& plan) {
  std::vector<SupervisorPolicy::RankName> names;
  for (const auto& r : plan.ranks) names.push_back({r.rank, r.host});
  return names;
}

PolicySettings policy_settings(const SuperviseOptions& o) {
  PolicySettings s = o.policy;
  s.grace = o.ranks.grace;
  return s;
}

class Job {
 public:
  Job(const Plan& plan, const std::vector<std::shared_ptr<AgentClient>>& agents,
      const SuperviseOptions& o)
      : plan_(plan),
        agents_(agents),
        o_(o),
        sink_(o.out, o.err, o.tag_output, rank_hosts(plan), o.log_dir, o.append_logs),
        policy_(rank_names(plan), policy_settings(o)) {
    if (!posix::make_pipe(wake_rd_, wake_wr_, true)) throw std::runtime_error("pipe() failed");
    sink_.set_out_closed(
        [this] { report([this](Steady::time_point now) { return policy_.output_closed(now); }); });
    for (const auto& r : plan.ranks) {
      RankState& s = *ranks_.emplace_back(std::make_unique<RankState>());
      s.result.rank = r.rank;
      s.result.host = r.host;
      s.out_lines = LineAssembler(sink_.is_terminal(Stream::out));
      s.err_lines = LineAssembler(sink_.is_terminal(Stream::err));
      s.wants_stdin = o.stdin_fd >= 0 && (!o.stdin_rank || *o.stdin_rank == r.rank);
    }
  }
  ~Job() {
    for (auto& r : ranks_)
      if (r->cmd) r->cmd->wait();
  }

  JobResult run();

 private:
  void start_all();
  void start_rank(size_t i);
  void on_stderr(RankState& s, std::string_view chunk);
  void on_exit(RankState& s, const ssh::ExitInfo& e);
  bool send(RankState& s, const std::string& frame);
  void carry_out(const SupervisorPolicy::Actions& actions);
  void abort_rank(size_t i);
  void log(size_t i, const std::string& what) const;
  void handle_stdin();
  void handle_exits();
  void handle_reports();
  void report(Report r);
  void ask_stacks(size_t i, const PolicyAction& a);
  void print_stacks(size_t i, const std::string& text);
  void health_loop();
  void health_failed(const std::string& what);
  int poll_timeout() const;
  void poll_once();

  const Plan& plan_;
  const std::vector<std::shared_ptr<AgentClient>>& agents_;
  const SuperviseOptions& o_;
  OutputSink sink_;
  std::vector<std::unique_ptr<RankState>> ranks_;
  std::mutex mu_;
  posix::Fd wake_rd_, wake_wr_;
  std::unique_ptr<posix::SignalPipe> signals_;
  bool stdin_open_ = false;
  std::vector<Report> reports_;  // under mu_
  bool ending_ = false;          // under mu_: the health check stops
  std::condition_variable ending_cv_;
  std::vector<StackDump> stacks_;  // main thread
  SupervisorPolicy policy_;        // main thread only
};

void Job::start_rank(size_t i) {
  RankState& s = *ranks_[i];
  const RankSpec& spec = plan_.ranks[i];
  ssh::StreamHandlers h;
  h.on_stdout = [this, &s](std::string_view c) {
    s.output = true;
    s.out_lines.feed_runs(c,
                          [&](std::string_view l) { sink_.line(s.result.rank, Stream::out, l); });
  };
  h.on_stderr = [this, &s](std::string_view c) { on_stderr(s, c); };
  h.on_exit = [this, &s](const ssh::ExitInfo& e) { on_exit(s, e); };
  s.result.start = Clock::now();
  RankSettings ws = o_.ranks;
  ws.stdin_forwarded = s.wants_stdin;
  try {
    auto request = agent_frames::encode_request(rank_request(plan_, spec, ws));
    RankReports reports;
    reports.on_progress = [this, i](const agent_frames::Pairs& p) {
      ProgressSample sample{pair_number(p, "io_bytes"), pair_number(p, "cpu_ms"),
                            pair_number(p, "heartbeat_ms")};
      report([this, i, sample](Steady::time_point now) { return policy_.sampled(i, sample, now); });
    };
    reports.on_stacks = [this, i](std::string_view text) {
      report([this, i, text = std::string(text)](Steady::time_point now) {
        print_stacks(i, text);
        return policy_.stacks_came(i, now);
      });
    };
    s.cmd = agents_[i]->start_rank(request, std::move(h), std::move(reports));
  } catch (const std::exception& e) {
    on_exit(s, {.error = std::string("could not start: ") + e.what()});
    return;
  }
  s.cmd->write_stdin(frame::secret(o_.secret));
  if (!s.wants_stdin) s.cmd->write_stdin(frame::end_of_input());
  s.cmd->write_stdin(frame::heartbeat());
  log(i, "started");
}

void Job::log(size_t i, const std::string& what) const {
  if (o_.log && o_.log->on())
    o_.log->line("rank " + std::to_string(plan_.ranks[i].rank) + " on " + plan_.ranks[i].host,
                 what);
}

// Hosts in parallel; each host's ranks one after another on its executor.
void Job::start_all() {
  std::map<const AgentClient*, std::vector<size_t>> by_host;
  for (size_t i = 0; i < ranks_.size(); ++i) by_host[agents_[i].get()].push_back(i);
  std::vector<std::thread> threads;
  threads.reserve(by_host.size());
  for (auto& [ex, idx] : by_host)
    threads.emplace_back([this, list = idx] {
      for (size_t i : list) start_rank(i);
    });
  for (auto& t : threads) t.join();
}

void Job::report(Report r) {
  {
    std::lock_guard lock(mu_);
    reports_.push_back(std::move(r));
  }
  char b = 1;
  (void)!write(wake_wr_.get(), &b, 1);
}

void Job::on_stderr(RankState& s, std::string_view chunk) {
  s.err_lines.feed(chunk, [&](std::string_view l) {
    auto at = l.find(agent_frames::kPidMarker);
    if (at == std::string_view::npos) {
      s.output = true;
      return sink_.line(s.result.rank, Stream::err, l);
    }
    int pid = parse_decimal<int>(trim(l.substr(at + agent_frames::kPidMarker.size()))).value_or(0);
    {
      std::lock_guard lock(mu_);
      s.result.pid = pid;
    }
    if (at > 0) sink_.line(s.result.rank, Stream::err, std::string(l.substr(0, at)) + "\n");
  });
}

void Job::on_exit(RankState& s, const ssh::ExitInfo& e) {
  s.out_lines.flush([&](std::string_view l) { sink_.line(s.result.rank, Stream::out, l); });
  s.err_lines.flush([&](std::string_view l) { sink_.line(s.result.rank, Stream::err, l); });
  {
    std::lock_guard lock(mu_);
    s.result.exit = e;
    s.result.end = Clock::now();
    s.ended = Steady::now();
    s.done = true;
  }
  char b = 1;
  (void)!write(wake_wr_.get(), &b, 1);
}

// Commands are only written to from this thread once started; no lock is
// held while calling into the executor (its I/O thread may be in on_exit).
// A command that ended is not written to, even before the policy knows.
bool Job::send(RankState& s, const std::string& frame) {
  if (!s.cmd || s.done) return false;
  s.cmd->write_stdin(frame);
  return true;
}

void Job::carry_out(const SupervisorPolicy::Actions& actions) {
  for (const auto& a : actions) {
    switch (a.kind) {
      case PolicyAction::Kind::send: {
        RankState& s = *ranks_[a.rank];
        // Reported as stopped only when told so while it still ran.
        bool sent = send(s, a.frame);
        if (sent && a.stop) s.result.stopped = true;
        if (sent && !a.text.empty()) log(a.rank, a.text);  // not the heartbeats
        break;
      }
      case PolicyAction::Kind::abort:
        log(a.rank, "aborted: its agent did not stop it in time");
        abort_rank(a.rank);
        break;
      case PolicyAction::Kind::note:
        if (o_.log) o_.log->line("job", a.text);
        sink_.note(a.text);
        break;
      case PolicyAction::Kind::stacks:
        ask_stacks(a.rank, a);
        break;
    }
  }
}

// On this machine we can kill the rank's group ourselves (abort() only kills
// the agent's channel for it); remotely, that makes its agent stop it.
void Job::abort_rank(size_t i) {
  RankState& r = *ranks_[i];
  if (!r.cmd || r.done) return;
  int pid = 0;
  {
    std::lock_guard lock(mu_);
    pid = r.result.pid;
  }
  if (pid > 0 && agents_[i]->host_executor().is_local()) ::kill(-pid, SIGKILL);
  r.cmd->abort();
}

// A rank that has ended, or never started, has no stacks to give: the
// policy hears so at once.
void Job::ask_stacks(size_t i, const PolicyAction& a) {
  RankState& r = *ranks_[i];
  r.stacks_why = a.text;
  if (!r.cmd || r.done) return carry_out(policy_.stacks_came(i, Steady::now()));
  if (a.stop) r.result.stopped = true;
  log(i, "stacks asked (" + a.text + ")");
  r.cmd->request_stacks(a.stop);
}

void Job::print_stacks(size_t i, const std::string& text) {
  RankState& r = *ranks_[i];
  StackDump d{r.result.rank, r.result.host, r.stacks_why, Clock::now(), text};
  std::string shown = "distlaunch: stacks of rank " + std::to_string(d.rank) + " on " + d.host +
                      " (" + d.why + "):\n";
  for (auto line : split_lines(text)) shown += "  " + std::string(line) + "\n";
  sink_.stacks(r.result.rank, shown);
  log(i, "stacks came (" + std::to_string(text.size()) + " bytes)");
  stacks_.push_back(std::move(d));
}

void Job::handle_reports() {
  std::vector<Report> fresh;
  {
    std::lock_guard lock(mu_);
    fresh.swap(reports_);
  }
  const auto now = Steady::now();
  for (auto& r : fresh) carry_out(r(now));
  for (size_t i = 0; i < ranks_.size(); ++i)
    if (ranks_[i]->output.exchange(false)) carry_out(policy_.output(i, now));
}

// --health-cmd on rank 0's host every interval, given the interval to
// finish (a check still running at the job's end is aborted, so it never
// holds the end up); its first failure goes to the loop, as a stall.
void Job::health_loop() {
  const auto every = std::chrono::duration_cast<milliseconds>(o_.health_interval);
  while (true) {
    {
      std::unique_lock lock(mu_);
      if (ending_cv_.wait_for(lock, every, [&] { return ending_; })) return;
    }
    struct Check {
      std::string out;
      std::optional<ssh::ExitInfo> exit;
    };
    auto check = std::make_shared<Check>();  // the handlers may outlive a throw here
    ssh::StreamHandlers h;
    h.on_stdout = [this, check](std::string_view c) {
      std::lock_guard lock(mu_);
      if (check->out.size() < 4096) check->out.append(c);
    };
    h.on_stderr = h.on_stdout;
    h.on_exit = [this, check](const ssh::ExitInfo& e) {
      {
        std::lock_guard lock(mu_);
        check->exit = e;
      }
      ending_cv_.notify_all();
    };
    std::unique_ptr<ssh::RunningCommand> cmd;
    try {
      cmd = agents_[0]->host_executor().start(o_.health_cmd, std::move(h));
    } catch (const std::exception& e) {
      health_failed(std::string("could not run it: ") + e.what());
      return;
    }
    cmd->close_stdin();
    bool timed_out = false, ending = false;
    {
      std::unique_lock lock(mu_);
      timed_out = !ending_cv_.wait_for(lock, every, [&] { return ending_ || check->exit; });
      ending = ending_;
    }
    if (timed_out || ending) cmd->abort();
    cmd->wait();
    if (ending) return;
    std::string what;
    {
      std::lock_guard lock(mu_);
      if (!timed_out && check->exit->ok()) continue;
      what = "'" + o_.health_cmd + "' " +
             (timed_out ? "did not finish in " + std::to_string(o_.health_interval.count()) + " s"
                        : describe_exit(*check->exit));
      if (auto said = first_line(check->out); !timed_out && !said.empty()) what += ": " + said;
    }
    health_failed(what);
    return;  // one failure is enough: the job stops, or was told to go on
  }
}

void Job::health_failed(const std::string& what) {
  if (o_.log) o_.log->line("job", "health check failed: " + what);
  report([this, what](Steady::time_point now) { return policy_.health_failed(what, now); });
}

void Job::handle_stdin() {
  char buf[4096];
  ssize_t n = read(o_.stdin_fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  for (size_t i = 0; i < ranks_.size(); ++i) {
    RankState& r = *ranks_[i];
    if (!r.wants_stdin) continue;
    bool sent = send(r, n > 0 ? frame::data(std::string_view(buf, static_cast<size_t>(n)))
                              : frame::end_of_input());
    if (sent && n > 0) carry_out(policy_.fed(i, Steady::now()));
  }
  if (n <= 0) stdin_open_ = false;
}

void Job::handle_exits() {
  // `done` is set after the result is written, so no lock is needed here.
  std::vector<SupervisorPolicy::RankExit> fresh;
  for (size_t i = 0; i < ranks_.size(); ++i) {
    RankState& r = *ranks_[i];
    if (!r.done || r.handled) continue;
    r.handled = true;
    fresh.push_back({i, r.result.exit, r.ended});
    log(i, "ended (pid " + std::to_string(r.result.pid) + "): " + describe_exit(r.result.exit));
  }
  if (!fresh.empty()) carry_out(policy_.exited(std::move(fresh), Steady::now()));
}

// Until the policy's next deadline, rounded up so that the loop does not
// spin on a deadline less than a millisecond away.
int Job::poll_timeout() const {
  auto left = policy_.next_deadline() - Steady::now();
  if (left >= kMaxPollWait) return static_cast<int>(kMaxPollWait.count());
  if (left <= Steady::duration::zero()) return 0;
  return static_cast<int>(std::chrono::ceil<milliseconds>(left).count());
}

// poll() ignores an entry whose fd is negative: no signal pipe, stdin closed.
void Job::poll_once() {
  pollfd fds[3] = {{wake_rd_.get(), POLLIN, 0},
                   {signals_ ? signals_->fd() : -1, POLLIN, 0},
                   {stdin_open_ ? o_.stdin_fd : -1, POLLIN, 0}};
  if (poll(fds, 3, poll_timeout()) <= 0) return;
  posix::drain_pipe(wake_rd_.get());
  if (fds[1].revents & POLLIN)
    for (int sig : signals_->drain()) {
      if (o_.log) o_.log->line("job", "distlaunch got SIG" + signal_name(sig));
      carry_out(sig == SIGQUIT ? policy_.dump_requested(Steady::now())
                               : policy_.signal(sig, Steady::now()));
    }
  if (fds[2].revents) handle_stdin();
}

JobResult Job::run() {
  JobResult result;
  result.start = Clock::now();
  policy_.job_started(Steady::now());
  if (o_.handle_signals) signals_ = std::make_unique<posix::SignalPipe>();
  for (auto& r : ranks_) stdin_open_ = stdin_open_ || r->wants_stdin;
  start_all();
  policy_.ranks_started(Steady::now());
  std::thread health;
  if (!o_.health_cmd.empty() && !agents_.empty()) health = std::thread([this] { health_loop(); });
  while (true) {
    poll_once();
    handle_reports();
    handle_exits();
    if (policy_.all_done()) break;
    carry_out(policy_.tick(Steady::now()));
  }
  if (health.joinable()) {
    {
      std::lock_guard lock(mu_);
      ending_ = true;
    }
    ending_cv_.notify_all();
    health.join();
  }
  for (auto& r : ranks_) {
    if (r->cmd) r->cmd->wait();
    std::lock_guard lock(mu_);
    result.ranks.push_back(r->result);
  }
  handle_reports();  // stacks that came with the end
  result.stacks = std::move(stacks_);
  result.stalled = policy_.stalled();
  result.interrupted = policy_.interrupted();
  result.exit_code = policy_.exit_code();
  result.reason = policy_.reason();
  result.end = Clock::now();
  return result;
}

}  // namespace

JobResult supervise(const Plan& plan, const std::vector<std::shared_ptr<AgentClient>>& agents,
                    const SuperviseOptions& options) {
  return Job(plan, agents, options).run();
}

}  // namespace distkit::launch
