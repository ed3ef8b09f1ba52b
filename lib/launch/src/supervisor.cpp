// The supervisor loop (contract in supervisor.hpp). Executor I/O threads only
// assemble lines, record exits and wake the loop through a pipe; every
// decision (fail fast, stop, kill, heartbeats, stdin) is taken here, on one
// thread, from one poll() over the signal pipe, the wake pipe and stdin.
#include "distkit/launch/supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "distkit/launch/output.hpp"
#include "distkit/launch/signals.hpp"
#include "distkit/util/signal_names.hpp"

namespace distkit::launch {

namespace {

using std::chrono::milliseconds;
using Steady = std::chrono::steady_clock;

struct RankState {
  std::unique_ptr<ssh::RunningCommand> cmd;
  LineAssembler out_lines, err_lines;
  RankResult result;
  std::atomic<bool> done{false};  // set by on_exit, after result
  bool handled = false;    // main thread only
  bool wants_stdin = true;
};

std::vector<std::string> rank_hosts(const Plan& plan) {
  std::vector<std::string> hosts;
  for (const auto& r : plan.ranks) hosts.push_back(r.host);
  return hosts;
}

std::string describe_exit(const ssh::ExitInfo& e) {
  if (!e.error.empty()) return "lost its connection (" + e.error + ")";
  if (e.signal) return "was killed by signal " + std::to_string(e.signal);
  return "exited with status " + std::to_string(e.exit_status);
}

class Job {
 public:
  Job(const Plan& plan, const std::vector<std::shared_ptr<ssh::Executor>>& executors,
      const SuperviseOptions& o)
      : plan_(plan), executors_(executors), o_(o),
        sink_(o.out, o.err, o.tag_output, rank_hosts(plan), o.log_dir) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe() failed");
    for (int fd : fds) {
      fcntl(fd, F_SETFD, FD_CLOEXEC);
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    wake_rd_ = fds[0];
    wake_wr_ = fds[1];
    for (const auto& r : plan.ranks) {
      auto s = std::make_unique<RankState>();
      s->result.rank = r.rank;
      s->result.host = r.host;
      s->wants_stdin = o.stdin_fd >= 0 && (!o.stdin_rank || *o.stdin_rank == r.rank);
      ranks_.push_back(std::move(s));
    }
  }
  ~Job() {
    for (auto& r : ranks_)
      if (r->cmd) r->cmd->wait();
    close(wake_rd_);
    close(wake_wr_);
  }

  JobResult run();

 private:
  void start_all();
  void start_rank(size_t i);
  void on_stderr(RankState& s, std::string_view chunk);
  void on_exit(RankState& s, const ssh::ExitInfo& e);
  void send(RankState& s, const std::string& frame);
  void send_all_live(const std::string& frame);
  void stop_all(const std::string& frame);
  void handle_signals(const std::vector<int>& sigs);
  void handle_stdin();
  void handle_exits();
  void check_deadlines();
  bool all_done();
  int poll_once();
  void fail(int code, std::string reason);

  const Plan& plan_;
  const std::vector<std::shared_ptr<ssh::Executor>>& executors_;
  const SuperviseOptions& o_;
  OutputSink sink_;
  std::vector<std::unique_ptr<RankState>> ranks_;
  std::mutex mu_;
  int wake_rd_ = -1, wake_wr_ = -1;
  std::unique_ptr<SignalPipe> signals_;
  bool stdin_open_ = false;

  // Decisions (main thread only).
  int exit_code_ = 0;
  std::string reason_;
  bool stopping_ = false;
  int signal_ = 0;
  Steady::time_point next_heartbeat_, hard_deadline_, soft_deadline_, window_deadline_;
  bool soft_pending_ = false, window_open_ = false, aborted_ = false;
  Steady::time_point started_;
};

void Job::start_rank(size_t i) {
  RankState& s = *ranks_[i];
  const RankSpec& spec = plan_.ranks[i];
  ssh::StreamHandlers h;
  h.on_stdout = [this, &s](std::string_view c) {
    s.out_lines.feed(c, [&](std::string_view l) { sink_.line(s.result.rank, Stream::out, l); });
  };
  h.on_stderr = [this, &s](std::string_view c) { on_stderr(s, c); };
  h.on_exit = [this, &s](const ssh::ExitInfo& e) { on_exit(s, e); };
  s.result.start = Clock::now();
  WrapperSettings ws = o_.wrapper;
  ws.stdin_forwarded = s.wants_stdin;
  try {
    s.cmd = executors_[i]->start(rank_start_request(plan_, spec, ws), std::move(h));
  } catch (const std::exception& e) {
    ssh::ExitInfo failed;
    failed.error = std::string("could not start: ") + e.what();
    on_exit(s, failed);
    return;
  }
  s.cmd->write_stdin(frame::secret(o_.secret));
  if (!s.wants_stdin) s.cmd->write_stdin(frame::end_of_input());
  s.cmd->write_stdin(frame::heartbeat());
}

// Hosts in parallel; each host's ranks one after another on its executor.
void Job::start_all() {
  std::map<const ssh::Executor*, std::vector<size_t>> by_host;
  for (size_t i = 0; i < ranks_.size(); ++i) by_host[executors_[i].get()].push_back(i);
  std::vector<std::thread> threads;
  for (auto& [ex, idx] : by_host)
    threads.emplace_back([this, list = idx] {
      for (size_t i : list) start_rank(i);
    });
  for (auto& t : threads) t.join();
}

void Job::on_stderr(RankState& s, std::string_view chunk) {
  s.err_lines.feed(chunk, [&](std::string_view l) {
    auto at = l.find(kPidMarker);
    if (at == std::string_view::npos) return sink_.line(s.result.rank, Stream::err, l);
    int pid = std::atoi(std::string(l.substr(at + kPidMarker.size())).c_str());
    {
      std::lock_guard lock(mu_);
      s.result.pid = pid;
    }
    if (at > 0) sink_.line(s.result.rank, Stream::err, std::string(l.substr(0, at)) + "\n");
  });
}

void Job::on_exit(RankState& s, const ssh::ExitInfo& e) {
  auto emit_out = [&](std::string_view l) { sink_.line(s.result.rank, Stream::out, l); };
  auto emit_err = [&](std::string_view l) { sink_.line(s.result.rank, Stream::err, l); };
  s.out_lines.flush(emit_out);
  s.err_lines.flush(emit_err);
  {
    std::lock_guard lock(mu_);
    s.result.exit = e;
    s.result.end = Clock::now();
    s.done = true;
  }
  char b = 1;
  (void)!write(wake_wr_, &b, 1);
}

// Commands are only written to from this thread once started; no lock is
// held while calling into the executor (its I/O thread may be in on_exit).
void Job::send(RankState& s, const std::string& frame) {
  if (s.cmd && !s.done) s.cmd->write_stdin(frame);
}

void Job::send_all_live(const std::string& frame) {
  for (auto& r : ranks_) send(*r, frame);
}

void Job::stop_all(const std::string& frame) {
  stopping_ = true;
  for (auto& r : ranks_) {
    if (r->done || !r->cmd) continue;
    r->result.stopped = true;
    r->cmd->write_stdin(frame);
  }
  hard_deadline_ = Steady::now() + o_.wrapper.grace + milliseconds(2000);
}

void Job::fail(int code, std::string reason) {
  if (!reason_.empty()) return;
  exit_code_ = code;
  reason_ = std::move(reason);
}

void Job::handle_signals(const std::vector<int>& sigs) {
  for (int sig : sigs) {
    if (signal_ == 0) {
      signal_ = sig;
      fail(128 + sig, "interrupted by SIG" + signal_name(sig) + "; stopping every rank");
      sink_.note("distlaunch: SIG" + signal_name(sig) +
                 ": forwarded to every rank; again to kill them at once");
      stopping_ = true;
      send_all_live(frame::signal(signal_name(sig)));
      soft_pending_ = true;
      soft_deadline_ = Steady::now() + o_.wrapper.grace;
      hard_deadline_ = soft_deadline_ + o_.wrapper.grace + milliseconds(2000);
    } else if (!aborted_) {
      sink_.note("distlaunch: killing every rank now");
      stop_all(frame::kill());
      hard_deadline_ = Steady::now() + milliseconds(500);
      aborted_ = true;
    }
  }
}

void Job::handle_stdin() {
  char buf[4096];
  ssize_t n = read(o_.stdin_fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  for (auto& r : ranks_) {
    if (!r->wants_stdin) continue;
    send(*r, n > 0 ? frame::data(std::string_view(buf, static_cast<size_t>(n)))
                   : frame::end_of_input());
  }
  if (n <= 0) stdin_open_ = false;
}

void Job::handle_exits() {
  // `done` is set after the result is written, so no lock is needed here.
  std::vector<RankState*> fresh;
  for (auto& r : ranks_)
    if (r->done && !r->handled) fresh.push_back(r.get());
  std::sort(fresh.begin(), fresh.end(),
            [](auto* a, auto* b) { return a->result.end < b->result.end; });
  for (RankState* s : fresh) {
    s->handled = true;
    const RankResult& r = s->result;
    if (r.exit.ok()) {
      if (!window_open_ && o_.exit_window.count() > 0) {
        window_open_ = true;
        window_deadline_ = Steady::now() + o_.exit_window;
      }
      continue;
    }
    if (stopping_ && r.stopped) continue;
    if (reason_.empty()) {
      int live = 0;
      for (auto& x : ranks_) live += x.get() != s && !x->handled;
      fail(r.exit.shell_status(), "rank " + std::to_string(r.rank) + " on " + r.host + " " +
                                      describe_exit(r.exit) + "; stopping the other " +
                                      std::to_string(live) + " running rank(s)");
      sink_.note("distlaunch: error: " + reason_);
    }
    if (!stopping_) stop_all(frame::terminate());
  }
}

void Job::check_deadlines() {
  auto now = Steady::now();
  if (now >= next_heartbeat_) {
    send_all_live(frame::heartbeat());
    next_heartbeat_ = now + o_.heartbeat_period;
  }
  if (soft_pending_ && now >= soft_deadline_) {
    soft_pending_ = false;
    stop_all(frame::terminate());
  }
  if (!stopping_ && o_.timeout.count() > 0 && now - started_ >= o_.timeout) {
    fail(1, "job: timed out after " + std::to_string(o_.timeout.count() / 1000) +
                " s; stopping every rank");
    sink_.note("distlaunch: error: " + reason_);
    stop_all(frame::terminate());
  }
  if (!stopping_ && window_open_ && now >= window_deadline_) {
    fail(1, "job: ranks still running " + std::to_string(o_.exit_window.count() / 1000) +
                " s after another rank finished; stopping them (see --exit-window)");
    sink_.note("distlaunch: error: " + reason_);
    stop_all(frame::terminate());
  }
  if (stopping_ && now >= hard_deadline_) {
    // The wrapper did not finish stopping its rank. On this machine we can
    // kill the rank's group ourselves (abort() only kills the wrapper's);
    // remotely, closing the channel makes the wrapper kill it.
    for (size_t i = 0; i < ranks_.size(); ++i) {
      RankState& r = *ranks_[i];
      if (!r.cmd || r.done) continue;
      int pid = 0;
      {
        std::lock_guard lock(mu_);
        pid = r.result.pid;
      }
      if (pid > 0 && executors_[i]->is_local()) ::kill(-pid, SIGKILL);
      r.cmd->abort();
    }
    hard_deadline_ = now + std::chrono::hours(1);
  }
}

bool Job::all_done() {
  for (auto& r : ranks_)
    if (!r->done || !r->handled) return false;
  return true;
}

int Job::poll_once() {
  pollfd fds[3];
  nfds_t n = 0;
  fds[n++] = {wake_rd_, POLLIN, 0};
  int sig_i = -1, in_i = -1;
  if (signals_) {
    sig_i = static_cast<int>(n);
    fds[n++] = {signals_->fd(), POLLIN, 0};
  }
  if (stdin_open_) {
    in_i = static_cast<int>(n);
    fds[n++] = {o_.stdin_fd, POLLIN, 0};
  }
  int rc = poll(fds, n, 100);
  if (rc <= 0) return rc;
  char drain[256];
  while (read(wake_rd_, drain, sizeof drain) > 0) {
  }
  if (sig_i >= 0 && (fds[sig_i].revents & POLLIN)) handle_signals(signals_->drain());
  if (in_i >= 0 && fds[in_i].revents) handle_stdin();
  return rc;
}

JobResult Job::run() {
  JobResult result;
  result.start = Clock::now();
  started_ = Steady::now();
  if (o_.handle_signals) signals_ = std::make_unique<SignalPipe>();
  stdin_open_ = false;
  for (auto& r : ranks_) stdin_open_ = stdin_open_ || r->wants_stdin;
  start_all();
  next_heartbeat_ = Steady::now() + o_.heartbeat_period;
  while (true) {
    poll_once();
    handle_exits();
    if (all_done()) break;
    check_deadlines();
  }
  for (auto& r : ranks_) {
    if (r->cmd) r->cmd->wait();
    std::lock_guard lock(mu_);
    result.ranks.push_back(r->result);
  }
  result.exit_code = exit_code_;
  result.reason = reason_;
  result.end = Clock::now();
  return result;
}

}  // namespace

JobResult supervise(const Plan& plan, const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                    const SuperviseOptions& options) {
  Job job(plan, executors, options);
  return job.run();
}

}  // namespace distkit::launch
