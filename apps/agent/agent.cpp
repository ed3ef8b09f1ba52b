// The host agent (agent.hpp; frames in distkit/launch/agent_frames.hpp):
// one poll() loop over its stdin, its stdout and three pipes per rank
// (rank.hpp), each rank a child of ours. Output is buffered here up to a
// limit; past it the ranks' pipes are not read, so a rank that writes
// faster than distlaunch takes its output blocks in write(), as it would
// on its own channel, while the launcher's frames (heartbeats) are still
// read and acted on.
#include "agent.hpp"

#include "checks.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/signal_pipe.hpp"
#include "distkit/version.hpp"
#include "group.hpp"
#include "guard.hpp"
#include "posix_util.hpp"
#include "rank.hpp"
#include "stacks.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace distkit_agent {
namespace {

namespace af = distkit::agent_frames;
namespace posix = distkit::posix;

constexpr std::size_t kOutputLimit = 1 << 20;  // buffered output before the pipes wait
constexpr double kLingerAfterExit = 1.0;       // s a rank's pipes may stay open after it ends
constexpr double kFlushAtEnd = 2.0;            // s to flush output once the launcher is gone
// s a rank's line may stay unended, nothing more in its pipe, before the
// launcher is told of the pause (an empty O or R frame): a terminal shows
// a prompt or streamed tokens about this late.
constexpr double kPauseMidLine = 0.1;

bool g_pad_lines = false;  // end every write with a newline (run_agent)

// A forked dumper collecting one rank's stacks (stacks.hpp) for a W or L.
struct Dumper {
  long id = -1;
  int fd = -1;  // its output, sent as B at EOF
  std::string text;
};

// fork() for a child of the agent's loop: the loop's signals stay blocked
// across it, so none meant for us runs our handler in the child; the child
// gets their default dispositions (and SIGPIPE's) before they are
// unblocked. Returns what fork returned.
pid_t fork_child() {
  sigset_t block, old;
  sigemptyset(&block);
  for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&block, s);
  sigprocmask(SIG_BLOCK, &block, &old);
  pid_t pid = fork();
  if (pid == 0)
    for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE}) signal(s, SIG_DFL);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return pid;
}

// The M frame's pairs for one rank: its group's counters and its
// heartbeat file's mtime (milliseconds since the epoch; absent: none).
std::string progress_pairs(const GroupCounters& c, const std::string& heartbeat) {
  af::Pairs p = {{"cpu_ms", std::to_string(c.cpu_ms)}, {"processes", std::to_string(c.processes)}};
  if (c.io_bytes >= 0) p.emplace_back("io_bytes", std::to_string(c.io_bytes));
  struct stat st {};
  if (!heartbeat.empty() && stat(heartbeat.c_str(), &st) == 0) {
#ifdef __APPLE__
    const timespec& m = st.st_mtimespec;
#else
    const timespec& m = st.st_mtim;
#endif
    p.emplace_back("heartbeat_ms",
                   std::to_string(static_cast<long long>(m.tv_sec) * 1000 + m.tv_nsec / 1000000));
  }
  return af::encode_pairs(p);
}

// The launcher's timing, from its P frame; false (with why) when the
// values are missing or break agent_protocol.hpp's order.
bool read_timing(const af::Pairs& p, long& heartbeat, long& idle, long& first_wait,
                 std::string& why) {
  const char* names[] = {"heartbeat_limit", "idle_limit", "first_rank_wait"};
  long* values[] = {&heartbeat, &idle, &first_wait};
  for (int i = 0; i < 3; ++i) {
    auto v = distkit::parse_digits(af::pair_value(p, names[i]), 6);
    if (!v) {
      why = std::string("no valid ") + names[i] + " in the launcher's P frame";
      return false;
    }
    *values[i] = *v;
  }
  // A rank's own watchdogs (no heartbeat, no start frame) must speak
  // before the agent gives up.
  const double margin = std::max(distkit::kHeartbeatMargin, distkit::kStartFrameMargin);
  if (heartbeat < 1 || static_cast<double>(idle) <= static_cast<double>(heartbeat) + margin) {
    why = "idle_limit " + std::to_string(idle) + " s is not past heartbeat_limit " +
          std::to_string(heartbeat) + " s and a rank's margins";
    return false;
  }
  return true;
}

class Agent {
 public:
  explicit Agent(posix::SignalPipe& signals) : signals_(signals) {}
  int run();

 private:
  void say(const std::string& msg) {
    std::string line = "distkit-agent: " + msg + "\n";
    (void)!write(2, line.data(), line.size());
  }
  void emit(char kind, long id, std::string_view data) {
    // Once the launcher is gone, output nobody may read is not kept.
    if (stdout_broken_ || (gone_ && out_.size() >= kOutputLimit)) return;
    af::append_frame(out_, af::Channel::from_agent, kind, id, data);
  }
  // The X frame for rank `id`: it has ended with `status`.
  void report_exit(long id, const std::string& status) {
    if (!stdout_broken_) af::append_frame(out_, af::Channel::from_agent, 'X', id, status);
  }
  void handle_frames();
  bool preflight(const std::string& payload);
  void protocol_error(const std::string& why);
  void start(long id, const std::string& request);
  void launcher_gone();
  bool read_pipe(long id, Rank& r, bool err);
  void send_output(long id, Rank& r, char kind, std::string_view data);
  double tell_pauses(double now);
  void close_loop_fds();
  void start_dump(long id, bool final);
  void read_dump(pid_t pid);
  void sample();
  void reap();
  void tick_ranks();
  void finish_ranks();
  void write_stdins();
  void flush_stdout();

  // Until the launcher's P frame: no timing of its own yet, so it waits
  // kFirstRankWait for it (a launcher that dies closes the channel first).
  double idle_ = static_cast<double>(distkit::kFirstRankWait), first_wait_ = 0;
  long heartbeat_limit_ = 0;
  bool preflight_done_ = false;
  bool sampling_ = false;  // P's sample=1: M frames every kSampleInterval
  double next_sample_ = 0;
  std::map<pid_t, Dumper> dumpers_;
  af::FrameStream in_{af::Channel::to_agent};  // the launcher's frames
  std::string out_;                            // frames not written to stdout yet
  bool eof_ = false, stdout_broken_ = false, gone_ = false, started_any_ = false;
  double gone_at_ = 0, last_input_ = 0;
  double next_tick_ = 0;   // when a rank's watchdog or stop next needs a look
  double next_pause_ = 0;  // when tell_pauses next has one to tell
  std::string host_ = "?";
  std::map<long, Rank> ranks_;
  Guard guard_;                 // stops the ranks should we die without doing so
  posix::SignalPipe& signals_;  // HUP, INT, TERM (and CHLD, which only wakes the loop)
  bool signalled_ = false;      // one of HUP, INT or TERM came
};

// The frames complete in in_; a malformed one ends the agent's input (the
// launcher and we disagree on the protocol; nothing after it can be trusted).
void Agent::handle_frames() {
  while (auto f = in_.next()) {
    const char kind = f->kind;
    const long id = f->number;
    // P first, once: the timing and the checks come before any rank.
    if (!kind || (kind == 'P') == preflight_done_)
      return protocol_error("unexpected frame '" + (kind ? std::string(1, kind) : f->data) + "'" +
                            (kind && !preflight_done_ ? " before the launcher's P frame" : ""));
    if (kind == 'P') {
      if (!preflight(f->data)) return;
      continue;
    }
    auto r = ranks_.find(id);
    if (kind == 'N') {
      started_any_ = true;
      if (gone_) {
        report_exit(id, "125");  // too late to start anything
        continue;
      }
      start(id, f->data);
    } else if (r == ranks_.end()) {
      // A rank that has ended: what was still sent to it is dropped.
    } else if (kind == 'I') {
      const bool starting = r->second.pid == 0;
      r->second.feed(f->data, now_seconds());
      if (starting && r->second.pid > 0) {
        guard_.watch(r->second.pid, r->second.grace(), r->second.dir());
        next_sample_ = 0;  // its first window's baseline
      }
    } else if (kind == 'W' || kind == 'L') {
      start_dump(id, kind == 'L');
    } else {  // 'C' or 'A': its frames have ended (each I was acted on as it came)
      r->second.end_of_stream(now_seconds());
    }
    next_tick_ = 0;
  }
}

// Nothing after a malformed frame can be trusted: read no more, and stop.
void Agent::protocol_error(const std::string& why) {
  say("protocol error: " + why);
  eof_ = true;
  launcher_gone();
}

// The launcher's P frame: its timing, then the checks, answered in F.
bool Agent::preflight(const std::string& payload) {
  auto pairs = af::decode_pairs(payload);
  long heartbeat = 0, idle = 0, first_wait = 0;
  std::string why = "malformed P frame";
  if (!pairs || !read_timing(*pairs, heartbeat, idle, first_wait, why)) {
    protocol_error(why);
    return false;
  }
  heartbeat_limit_ = heartbeat;
  idle_ = static_cast<double>(idle);
  first_wait_ = static_cast<double>(first_wait);
  sampling_ = af::pair_value(*pairs, "sample") == "1";
  af::append_frame(out_, af::Channel::from_agent, 'F', -1, af::encode_pairs(run_checks(*pairs)));
  preflight_done_ = true;
  // The guard starts while the launcher reads F and waits for the other
  // hosts' (not on a rank's way to its start).
  flush_stdout();
  guard_.start();
  last_input_ = now_seconds();  // the checks took time that was not silence
  return true;
}

// Rank `id`'s start request: its temp dir now, the rank itself on its
// secret frame (rank.hpp).
void Agent::start(long id, const std::string& request) {
  // try_emplace constructs no Rank (no temp dir) for an id already taken.
  if (!ranks_.try_emplace(id, af::decode_request(request), heartbeat_limit_, host_, now_seconds())
           .second)
    say("protocol error: rank id " + std::to_string(id) + " started twice");
}

// The launcher closed our stdin or cannot be written to: every rank's
// stream has ended, which stops it.
void Agent::launcher_gone() {
  if (gone_) return;
  gone_ = true;
  gone_at_ = now_seconds();
  for (auto& [id, r] : ranks_) r.end_of_stream(gone_at_);
  next_tick_ = 0;
}

// One read of rank `id`'s stdout or stderr; true when it got bytes.
bool Agent::read_pipe(long id, Rank& r, bool err) {
  int& fd = err ? r.err : r.out;
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    send_output(id, r, err ? 'R' : 'O', std::string_view(buf, static_cast<std::size_t>(n)));
    return true;
  }
  if (n == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(fd);
  return false;
}

// Rank `id`'s output (or our lines about it, on R), noting since when what
// the launcher has of that stream has been one unended line: a line
// started in this chunk is as old as it; one that goes on keeps its age.
void Agent::send_output(long id, Rank& r, char kind, std::string_view data) {
  emit(kind, id, data);
  double& since = kind == 'O' ? r.out_open_since : r.err_open_since;
  if (data.back() == '\n')
    since = -1;
  else if (since < 0 || data.find_first_of("\r\n") != std::string_view::npos)
    since = now_seconds();
}

// Called with the pipes just read as far as they had bytes: a line that
// has stayed unended for kPauseMidLine is a pause of the rank's, told as
// an empty O or R frame (the launcher may show the line so far; the rest
// continues it). Returns when the next one is due.
double Agent::tell_pauses(double now) {
  double next = now + 1;
  for (auto& [id, r] : ranks_)
    for (double* since : {&r.out_open_since, &r.err_open_since}) {
      if (*since < 0) continue;
      if (now - *since < kPauseMidLine) {
        next = std::min(next, *since + kPauseMidLine);
        continue;
      }
      emit(since == &r.out_open_since ? 'O' : 'R', id, {});
      *since = -1;
    }
  return next;
}

void Agent::reap() {
  int st = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
    for (auto& [id, r] : ranks_)  // a dumper's end is its pipe's EOF (read_dump)
      if (r.pid == pid) r.exited(st, now_seconds()), next_tick_ = 0;
}

// Every rank's watchdogs and stops, when one is due; what they said goes
// to the launcher on the rank's stderr.
void Agent::tick_ranks() {
  double now = now_seconds();
  if (now < next_tick_) return;
  next_tick_ = now + 0.25;
  for (auto& [id, r] : ranks_) {
    next_tick_ = std::min(next_tick_, r.tick(now));
    if (!r.said.empty()) send_output(id, r, 'R', r.said), r.said.clear();
  }
}

// A rank that has ended is reported once its output is all read (or,
// should something it started hold the pipes open, after a short linger).
void Agent::finish_ranks() {
  double now = now_seconds();
  for (auto it = ranks_.begin(); it != ranks_.end();) {
    Rank& r = it->second;
    if (!r.ended() || ((r.out >= 0 || r.err >= 0) && now - r.ended_at() < kLingerAfterExit)) {
      ++it;
      continue;
    }
    // What is left in the pipes (bounded: something may still be writing).
    for (bool err : {false, true}) {
      int& fd = err ? r.err : r.out;
      for (int i = 0; i < 64 && fd >= 0 && read_pipe(it->first, r, err);) ++i;
      close_fd(fd);
    }
    if (!r.said.empty()) emit('R', it->first, r.said);
    r.drop_stdin();
    r.remove_dir();
    if (r.pid > 0) guard_.forget(r.pid);
    report_exit(it->first, std::to_string(r.code()));
    it = ranks_.erase(it);
  }
}

// In a forked child (a dumper): closes every descriptor of the loop's (the
// signal pipe, every rank's pipes, every dumper's, the guard's), so that none
// holds another's pipe open.
void Agent::close_loop_fds() {
  signals_.close_in_child();
  for (auto& [id, r] : ranks_)
    for (int fd : {r.in, r.out, r.err})
      if (fd >= 0) close(fd);
  for (auto& [pid, d] : dumpers_) close(d.fd);
  if (guard_.fd() >= 0) close(guard_.fd());
}

// W or L for rank `id`: a forked dumper collects its stacks (this loop
// keeps serving every rank meanwhile) and its output goes back as B.
void Agent::start_dump(long id, bool final) {
  auto r = ranks_.find(id);
  std::string none;
  if (r == ranks_.end() || r->second.ended())
    none = "the rank has ended";
  else if (r->second.pid <= 0)
    none = "the rank has not started yet";
  posix::Fd pipe_r, pipe_w;
  if (none.empty() && !posix::make_pipe(pipe_r, pipe_w))
    none = std::string("cannot create a pipe: ") + std::strerror(errno);
  if (!none.empty()) return emit('B', id, none);
  const pid_t group = r->second.pid;
  pid_t pid = fork_child();
  if (pid == 0) {
    // Nothing of the launcher's channel stays open in here.
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    close(null);
    pipe_r.reset();
    close_loop_fds();
    const double deadline = now_seconds() + static_cast<double>(distkit::kStackDumpLimit);
    write_all(pipe_w.get(), dump_stacks(group, final, deadline));
    _exit(0);
  }
  // The write end closes as this returns.
  if (pid < 0) return emit('B', id, std::string("cannot fork: ") + std::strerror(errno));
  posix::set_nonblock(pipe_r.get());
  dumpers_[pid] = Dumper{id, pipe_r.release(), {}};
}

void Agent::read_dump(pid_t pid) {
  auto it = dumpers_.find(pid);
  if (it == dumpers_.end()) return;
  Dumper& d = it->second;
  char buf[65536];
  ssize_t n = read(d.fd, buf, sizeof buf);
  if (n > 0) {
    if (d.text.size() < (1u << 19)) d.text.append(buf, static_cast<std::size_t>(n));
    return;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  close(d.fd);
  if (d.text.empty()) d.text = "the stack dump ended without output";
  emit('B', d.id, d.text);
  dumpers_.erase(it);  // reap() collects the process
}

// Every running rank's progress counters, from one pass over the process
// table (group.hpp), as M frames.
void Agent::sample() {
  next_sample_ = now_seconds() + distkit::kSampleInterval;
  std::vector<pid_t> groups;
  for (const auto& [id, r] : ranks_)
    if (r.running()) groups.push_back(r.pid);
  if (groups.empty()) return;
  auto counters = sample_groups(groups);
  for (const auto& [id, r] : ranks_) {
    auto c = r.running() ? counters.find(r.pid) : counters.end();
    if (c == counters.end()) continue;
    emit('M', id, progress_pairs(c->second, r.heartbeat_file()));
  }
}

void Agent::write_stdins() {
  for (auto& [id, r] : ranks_) {
    if (r.in < 0) continue;
    if (!r.queue.empty()) {
      ssize_t n = write(r.in, r.queue.data() + r.queue_off, r.queue.size() - r.queue_off);
      if (n > 0) {
        // Amortised: erase written bytes only when they are most of it.
        r.queue_off += static_cast<std::size_t>(n);
        if (r.queue_off == r.queue.size())
          r.queue.clear(), r.queue_off = 0;
        else if (r.queue_off > (1u << 20) && r.queue_off * 2 > r.queue.size())
          r.queue.erase(0, r.queue_off), r.queue_off = 0;
      } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        r.drop_stdin();  // the rank closed its stdin: what it did not read is dropped
      }
    }
    if (r.in >= 0 && r.close_after && r.queue.empty()) close_fd(r.in);
  }
}

void Agent::flush_stdout() {
  // out_ holds whole frames: a newline after the last one is padding
  // between frames, which the launcher skips.
  if (g_pad_lines && !out_.empty() && out_.back() != '\n') out_ += '\n';
  while (!out_.empty()) {
    ssize_t n = write(1, out_.data(), out_.size());
    if (n > 0) {
      out_.erase(0, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    stdout_broken_ = true;  // nobody reads us any more
    out_.clear();
    launcher_gone();
    return;
  }
}

int Agent::run() {
  char h[256] = {0};
  if (gethostname(h, sizeof h - 1) == 0 && h[0]) host_ = h;
  last_input_ = now_seconds();
  posix::set_cloexec_nonblock(0);
  posix::set_cloexec_nonblock(1);
  // The hello (agent_protocol.hpp): the launcher hands us ranks only after
  // one of its own protocol.
  af::append_frame(out_, af::Channel::from_agent, 'V', distkit::kAgentProtocol, distkit::kVersion);
  while (true) {
    reap();
    tick_ranks();
    finish_ranks();
    flush_stdout();
    if (signalled_) launcher_gone();  // HUP/INT/TERM: stop like on EOF
    double now = now_seconds();
    // Every live rank gets a heartbeat a second: silence for the idle limit
    // means the launcher is gone or cut off, whether or not ranks run (a
    // rank blocked writing to a full pipe would otherwise keep us).
    if (!gone_ && now - last_input_ >= idle_ + (started_any_ ? 0 : first_wait_)) {
      if (!preflight_done_) say("no P frame from the launcher; ending");
      launcher_gone();
    }
    if (ranks_.empty() && gone_ && (out_.empty() || now - gone_at_ >= kFlushAtEnd)) return 0;
    if (sampling_ && !gone_ && now >= next_sample_) sample();
    std::vector<pollfd> fds;
    std::vector<std::pair<long, int>> pipes;  // for fds[3..]: rank, 0 out 1 err 2 in
    fds.push_back({signals_.fd(), POLLIN, 0});
    fds.push_back({eof_ ? -1 : 0, POLLIN, 0});
    fds.push_back({out_.empty() ? -1 : 1, POLLOUT, 0});
    // Past the limit the pipes wait, unless the launcher is gone (then a
    // rank blocked on a full pipe could not end).
    bool read_pipes = out_.size() < kOutputLimit || gone_;
    for (auto& [id, r] : ranks_) {
      if (read_pipes)
        for (int err : {0, 1})
          if (int fd = err ? r.err : r.out; fd >= 0)
            fds.push_back({fd, POLLIN, 0}), pipes.push_back({id, err});
      if (r.in >= 0 && !r.queue.empty())
        fds.push_back({r.in, POLLOUT, 0}), pipes.push_back({id, 2});
    }
    std::vector<pid_t> dumps;  // for fds after the pipes'
    for (auto& [pid, d] : dumpers_) fds.push_back({d.fd, POLLIN, 0}), dumps.push_back(pid);
    const double wait = std::clamp(std::min(next_tick_, next_pause_) - now_seconds(), 0.0, 0.25);
    int rc = poll(fds.data(), fds.size(), static_cast<int>(std::ceil(wait * 1000)));
    if (rc < 0 && errno != EINTR) {
      say(std::string("poll failed: ") + std::strerror(errno));
      return 1;
    }
    if (rc < 0) continue;  // EINTR; on a timeout the pipes were all found empty
    if (fds[0].revents)
      for (int sig : signals_.drain()) signalled_ = signalled_ || sig != SIGCHLD;
    if (fds[1].revents) {
      char buf[65536];
      ssize_t n = read(0, buf, sizeof buf);
      if (n > 0) {
        last_input_ = now_seconds();
        in_.feed(std::string_view(buf, static_cast<std::size_t>(n)));
        handle_frames();
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        eof_ = true;
        launcher_gone();
      }
    }
    for (std::size_t i = 0; i < pipes.size(); ++i) {
      if (!fds[i + 3].revents) continue;
      auto [id, which] = pipes[i];
      auto r = ranks_.find(id);
      if (r != ranks_.end() && which < 2) read_pipe(id, r->second, which == 1);
    }
    // Only while the pipes are read: else a line's rest may wait in one.
    next_pause_ = read_pipes && !gone_ ? tell_pauses(now_seconds()) : now_seconds() + 1;
    for (std::size_t i = 0; i < dumps.size(); ++i)
      if (fds[3 + pipes.size() + i].revents) read_dump(dumps[i]);
    write_stdins();
  }
}

}  // namespace

int run_agent() {
  // Slurm's step I/O passes a task's output on by lines: under srun
  // (distlaunch --launcher srun sets this), a frame that does not end in a
  // newline would wait for the next one. Not for the ranks' environment.
  if (const char* v = std::getenv("DISTKIT_AGENT_LINES")) {
    g_pad_lines = std::string(v) == "1";
    unsetenv("DISTKIT_AGENT_LINES");
  }
  // Three descriptors a rank: macOS's default soft limit (256) would stop a
  // host at ~80 ranks. Each rank gets the original (rank.hpp).
  if (getrlimit(RLIMIT_NOFILE, &g_rank_nofile) == 0)
    g_nofile_raised = posix::raise_open_files(RLIM_INFINITY) > g_rank_nofile.rlim_cur;
  // SIGCHLD too: a rank's end wakes the loop.
  std::optional<posix::SignalPipe> signals;
  try {
    signals.emplace(std::initializer_list<int>{SIGHUP, SIGINT, SIGTERM, SIGCHLD});
  } catch (const std::exception&) {
    return 126;  // no pipe
  }
  return Agent(*signals).run();
}

}  // namespace distkit_agent
