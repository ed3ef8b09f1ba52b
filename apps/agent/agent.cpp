// The host agent (agent.hpp; frames in distkit/launch/agent_frames.hpp):
// one poll() loop over its stdin, its stdout and three pipes per rank
// wrapper. Single-threaded, so a wrapper is forked without exec and runs
// run_rank directly (one exec less per rank). Output is buffered here up
// to a limit; past it the wrappers' pipes are not read, so a rank that
// writes faster than distlaunch takes its output blocks in write(), as it
// would on its own channel, while stdin frames (heartbeats) keep flowing
// to every wrapper.
#include "agent.hpp"

#include "checks.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/version.hpp"
#include "posix_util.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace distkit_agent {
namespace {

constexpr std::size_t kOutputLimit = 1 << 20;  // buffered output before the pipes wait
constexpr double kLingerAfterExit = 1.0;       // s a wrapper's pipes may stay open after it ends
constexpr double kFlushAtEnd = 2.0;            // s to flush output once the launcher is gone

volatile sig_atomic_t g_stop = 0;  // HUP/INT/TERM: stop like on EOF
int g_agent_wake[2] = {-1, -1};
rlimit g_nofile;  // the limit the wrappers and ranks get back (raised for us)

void on_agent_signal(int sig) {
  int saved = errno;
  if (sig != SIGCHLD) g_stop = 1;
  char b = 1;
  (void)!write(g_agent_wake[1], &b, 1);
  errno = saved;
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

struct WrapperChild {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;  // our ends of its stdin, stdout, stderr
  std::string queue;                // stdin bytes, written up to queue_off
  std::size_t queue_off = 0;
  bool close_after = false;  // C received: close once queue is written
  bool exited = false;
  int status = 0;
  double exited_at = 0;
};

// The launcher's timing, from its P frame; false (with why) when the
// values are missing or break agent_protocol.hpp's order.
bool read_timing(const distkit::agent_frames::Pairs& p, long& heartbeat, long& idle,
                 long& first_wait, std::string& why) {
  namespace af = distkit::agent_frames;
  const char* names[] = {"heartbeat_limit", "idle_limit", "first_rank_wait"};
  long* values[] = {&heartbeat, &idle, &first_wait};
  for (int i = 0; i < 3; ++i)
    if (!af::parse_decimal(af::pair_value(p, names[i]), 6, *values[i])) {
      why = std::string("no valid ") + names[i] + " in the launcher's P frame";
      return false;
    }
  // A wrapper's own watchdogs (no heartbeat, no start frame) must speak
  // before the agent gives up.
  const double margin = std::max(distkit::kHeartbeatMargin, distkit::kStartFrameMargin);
  if (heartbeat < 1 || static_cast<double>(idle) <= static_cast<double>(heartbeat) + margin) {
    why = "idle_limit " + std::to_string(idle) + " s is not past heartbeat_limit " +
          std::to_string(heartbeat) + " s and a wrapper's margins";
    return false;
  }
  return true;
}

class Agent {
 public:
  int run();

 private:
  void say(const std::string& msg) {
    std::string line = "distkit-agent: " + msg + "\n";
    (void)!write(2, line.data(), line.size());
  }
  void emit(char kind, long id, const char* data, std::size_t n) {
    // Once the launcher is gone, output nobody may read is not kept.
    if (stdout_broken_ || (gone_ && out_.size() >= kOutputLimit)) return;
    out_ += kind;
    out_ += ' ' + std::to_string(id) + ' ' + std::to_string(n) + '\n';
    out_.append(data, n);
  }
  // The X frame for rank `id`; with a message on its stderr first when a
  // start failed.
  void report_exit(long id, const std::string& status) {
    if (!stdout_broken_) out_ += "X " + std::to_string(id) + " " + status + "\n";
  }
  void fail_start(long id, const std::string& msg, int code) {
    std::string line = "distkit-agent: " + msg + "\n";
    emit('R', id, line.data(), line.size());
    report_exit(id, std::to_string(code));
  }
  void handle_frames();
  bool preflight(const std::string& payload);
  void protocol_error(const std::string& why);
  void start(long id, const std::string& request);
  void launcher_gone();
  bool read_pipe(long id, int& fd, char kind);
  void reap();
  void finish_wrappers();
  void write_stdins();
  void flush_stdout();

  // Until the launcher's P frame: no timing of its own yet, so it waits
  // kFirstRankWait for it (a launcher that dies closes the channel first).
  double idle_ = static_cast<double>(distkit::kFirstRankWait), first_wait_ = 0;
  long heartbeat_limit_ = 0;
  bool preflight_done_ = false;
  std::string in_;   // stdin bytes not parsed yet
  std::string out_;  // frames not written to stdout yet
  bool eof_ = false, stdout_broken_ = false, gone_ = false, started_any_ = false;
  double gone_at_ = 0, last_input_ = 0;
  std::map<long, WrapperChild> wrappers_;
};

// The frames complete in in_; a malformed one ends the agent's input (the
// launcher and we disagree on the protocol; nothing after it can be trusted).
void Agent::handle_frames() {
  std::size_t pos = 0;
  while (true) {
    namespace af = distkit::agent_frames;
    std::size_t nl = in_.find('\n', pos);
    // No header can be this long: garbage, not a frame still arriving.
    if (nl == std::string::npos && in_.size() - pos <= af::max_header(af::Channel::to_agent)) break;
    const std::string line = in_.substr(pos, nl == std::string::npos ? nl : nl - pos);
    auto h = nl == std::string::npos ? std::nullopt : af::parse_header(af::Channel::to_agent, line);
    // P first, once: the timing and the checks come before any rank.
    if (!h || (h->kind == 'P') == preflight_done_)
      return protocol_error("unexpected frame '" + line.substr(0, 40) + "'" +
                            (h && !preflight_done_ ? " before the launcher's P frame" : ""));
    const char kind = h->kind;
    const long id = h->number;
    std::size_t after = nl + 1;
    if (h->sized && in_.size() - after < h->size) break;  // wait for the bytes
    std::string payload = h->sized ? in_.substr(after, h->size) : std::string();
    pos = after + (h->sized ? h->size : 0);
    if (kind == 'P') {
      if (!preflight(payload)) return;
      continue;
    }
    auto w = wrappers_.find(id);
    if (kind == 'N') {
      started_any_ = true;
      if (gone_) {
        report_exit(id, "125");  // too late to start anything
        continue;
      }
      start(id, payload);
    } else if (w == wrappers_.end() || w->second.exited) {
      // A rank that has ended: what was still sent to it is dropped.
    } else if (kind == 'I') {
      if (w->second.in >= 0) w->second.queue += payload;
    } else if (kind == 'C') {
      w->second.close_after = true;
    } else {  // 'A'
      w->second.queue.clear(), w->second.queue_off = 0;
      close_fd(w->second.in);
    }
  }
  in_.erase(0, pos);
}

// Nothing after a malformed frame can be trusted: read no more, and stop.
void Agent::protocol_error(const std::string& why) {
  say("protocol error: " + why);
  in_.clear();
  eof_ = true;
  launcher_gone();
}

// The launcher's P frame: its timing, then the checks, answered in F.
bool Agent::preflight(const std::string& payload) {
  namespace af = distkit::agent_frames;
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
  std::string facts = af::encode_pairs(run_checks(*pairs));
  out_ += "F " + std::to_string(facts.size()) + "\n" + facts;
  preflight_done_ = true;
  last_input_ = now_seconds();  // the checks took time that was not silence
  return true;
}

// Forks the wrapper for rank `id`. The child keeps only its three pipe ends
// (every other descriptor of ours is closed) and runs run_rank itself.
void Agent::start(long id, const std::string& request) {
  auto [env, args] = distkit::agent_frames::decode_request(request);
  if (wrappers_.count(id)) {
    say("protocol error: rank id " + std::to_string(id) + " started twice");
    return;
  }
  if (args.empty()) {
    fail_start(id,
               "empty start request for rank id " + std::to_string(id) +
                   "; use the same distkit version on every host",
               125);
    return;
  }
  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  if (pipe(pin) != 0 || pipe(pout) != 0 || pipe(perr) != 0) {
    int saved = errno;
    for (int fd : {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1]})
      if (fd >= 0) close(fd);
    fail_start(id, std::string("cannot create pipes: ") + std::strerror(saved), 126);
    return;
  }
  sigset_t block, old;
  sigemptyset(&block);
  for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&block, s);
  sigprocmask(SIG_BLOCK, &block, &old);
  pid_t pid = fork();
  if (pid == 0) {
    for (int s : {SIGHUP, SIGINT, SIGTERM, SIGCHLD, SIGPIPE}) signal(s, SIG_DFL);
    setrlimit(RLIMIT_NOFILE, &g_nofile);  // the rank gets what a channel of its own would
    sigprocmask(SIG_SETMASK, &old, nullptr);
    dup2(pin[0], 0);
    dup2(pout[1], 1);
    dup2(perr[1], 2);
    for (int fd :
         {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1], g_agent_wake[0], g_agent_wake[1]})
      close(fd);
    for (auto& [other, w] : wrappers_)
      for (int fd : {w.in, w.out, w.err})
        if (fd >= 0) close(fd);
    for (const auto& e : env) {
      std::size_t eq = e.find('=');
      if (eq != std::string::npos && eq > 0)
        setenv(e.substr(0, eq).c_str(), e.substr(eq + 1).c_str(), 1);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    _exit(run_rank(static_cast<int>(argv.size()) - 1, argv.data(), heartbeat_limit_));
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  if (pid < 0) {
    int saved = errno;
    for (int fd : {pin[1], pout[0], perr[0]}) close(fd);
    fail_start(id, std::string("cannot fork: ") + std::strerror(saved), 126);
    return;
  }
  WrapperChild w;
  w.pid = pid;
  w.in = pin[1];
  w.out = pout[0];
  w.err = perr[0];
  for (int fd : {w.in, w.out, w.err}) set_cloexec_nonblock(fd);
  wrappers_.emplace(id, std::move(w));
}

// The launcher closed our stdin or cannot be written to: every wrapper gets
// EOF on its stdin, which makes it stop its rank and end.
void Agent::launcher_gone() {
  if (gone_) return;
  gone_ = true;
  gone_at_ = now_seconds();
  for (auto& [id, w] : wrappers_) {
    w.queue.clear(), w.queue_off = 0;
    close_fd(w.in);
  }
}

// One read; true when it got bytes.
bool Agent::read_pipe(long id, int& fd, char kind) {
  char buf[65536];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n > 0) {
    emit(kind, id, buf, static_cast<std::size_t>(n));
    return true;
  }
  if (n == 0 || (errno != EINTR && errno != EAGAIN)) close_fd(fd);
  return false;
}

void Agent::reap() {
  int st = 0;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
    for (auto& [id, w] : wrappers_)
      if (w.pid == pid) {
        w.exited = true;
        w.status = st;
        w.exited_at = now_seconds();
        w.queue.clear(), w.queue_off = 0;
        close_fd(w.in);
      }
}

// A wrapper that has ended is reported once its output is all read (or,
// should something it started hold the pipes open, after a short linger).
void Agent::finish_wrappers() {
  double now = now_seconds();
  for (auto it = wrappers_.begin(); it != wrappers_.end();) {
    WrapperChild& w = it->second;
    if (!w.exited || ((w.out >= 0 || w.err >= 0) && now - w.exited_at < kLingerAfterExit)) {
      ++it;
      continue;
    }
    // What is left in the pipes (bounded: something may still be writing).
    for (int* fd : {&w.out, &w.err}) {
      for (int i = 0; i < 64 && *fd >= 0 && read_pipe(it->first, *fd, fd == &w.out ? 'O' : 'R');)
        ++i;
      close_fd(*fd);
    }
    std::string status = WIFSIGNALED(w.status) ? "s" + std::to_string(WTERMSIG(w.status))
                                               : std::to_string(WEXITSTATUS(w.status));
    report_exit(it->first, status);
    it = wrappers_.erase(it);
  }
}

void Agent::write_stdins() {
  for (auto& [id, w] : wrappers_) {
    if (w.in < 0) continue;
    if (!w.queue.empty()) {
      ssize_t n = write(w.in, w.queue.data() + w.queue_off, w.queue.size() - w.queue_off);
      if (n > 0) {
        // Amortised: erase written bytes only when they are most of it.
        w.queue_off += static_cast<std::size_t>(n);
        if (w.queue_off == w.queue.size())
          w.queue.clear(), w.queue_off = 0;
        else if (w.queue_off > (1u << 20) && w.queue_off * 2 > w.queue.size())
          w.queue.erase(0, w.queue_off), w.queue_off = 0;
      } else if (n < 0 && errno != EAGAIN && errno != EINTR)
        w.queue.clear(), w.queue_off = 0, close_fd(w.in);  // gone; reap() reports it
    }
    if (w.in >= 0 && w.close_after && w.queue.empty()) close_fd(w.in);
  }
}

void Agent::flush_stdout() {
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
  last_input_ = now_seconds();
  set_cloexec_nonblock(0);
  set_cloexec_nonblock(1);
  // The hello (agent_protocol.hpp): the launcher hands us ranks only after
  // one of its own protocol.
  out_ = "V " + std::to_string(distkit::kAgentProtocol) + " " + distkit::kVersion + "\n";
  while (true) {
    reap();
    finish_wrappers();
    flush_stdout();
    if (g_stop) launcher_gone();
    double now = now_seconds();
    // Every live rank gets a heartbeat a second: silence for the idle limit
    // means the launcher is gone or cut off, whether or not ranks run (a
    // wrapper blocked writing to a full pipe would otherwise keep us).
    if (!gone_ && now - last_input_ >= idle_ + (started_any_ ? 0 : first_wait_)) {
      if (!preflight_done_) say("no P frame from the launcher; ending");
      launcher_gone();
    }
    if (wrappers_.empty() && gone_ && (out_.empty() || now - gone_at_ >= kFlushAtEnd)) return 0;
    std::vector<pollfd> fds;
    std::vector<std::pair<long, int*>> pipes;  // for fds[3..]
    fds.push_back({g_agent_wake[0], POLLIN, 0});
    fds.push_back({eof_ ? -1 : 0, POLLIN, 0});
    fds.push_back({out_.empty() ? -1 : 1, POLLOUT, 0});
    // Past the limit the pipes wait, unless the launcher is gone (then a
    // wrapper blocked on a full pipe could not end).
    bool read_pipes = out_.size() < kOutputLimit || gone_;
    for (auto& [id, w] : wrappers_) {
      if (read_pipes)
        for (int* fd : {&w.out, &w.err})
          if (*fd >= 0) fds.push_back({*fd, POLLIN, 0}), pipes.push_back({id, fd});
      if (w.in >= 0 && !w.queue.empty())
        fds.push_back({w.in, POLLOUT, 0}), pipes.push_back({id, nullptr});
    }
    int rc = poll(fds.data(), fds.size(), 250);
    if (rc < 0 && errno != EINTR) {
      say(std::string("poll failed: ") + std::strerror(errno));
      return 1;
    }
    if (rc <= 0) continue;
    if (fds[0].revents) {
      char b[64];
      while (read(g_agent_wake[0], b, sizeof b) > 0) {
      }
    }
    if (fds[1].revents) {
      char buf[65536];
      ssize_t n = read(0, buf, sizeof buf);
      if (n > 0) {
        last_input_ = now_seconds();
        in_.append(buf, static_cast<std::size_t>(n));
        handle_frames();
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        eof_ = true;
        launcher_gone();
      }
    }
    for (std::size_t i = 0; i < pipes.size(); ++i) {
      if (!fds[i + 3].revents) continue;
      auto [id, fd] = pipes[i];
      auto w = wrappers_.find(id);
      if (w == wrappers_.end()) continue;
      if (fd) read_pipe(id, *fd, fd == &w->second.out ? 'O' : 'R');
    }
    write_stdins();
  }
}

}  // namespace

int run_agent() {
  if (pipe(g_agent_wake) != 0) return 126;
  // Three descriptors a rank: macOS's default soft limit (256) would stop a
  // host at ~80 ranks. The wrappers put the original back for their ranks.
  if (getrlimit(RLIMIT_NOFILE, &g_nofile) == 0) {
    rlimit raised = g_nofile;
    raised.rlim_cur = g_nofile.rlim_max == RLIM_INFINITY ? 10240 : g_nofile.rlim_max;
    if (raised.rlim_cur > g_nofile.rlim_cur) setrlimit(RLIMIT_NOFILE, &raised);
  } else {
    g_nofile.rlim_cur = g_nofile.rlim_max = RLIM_INFINITY;  // nothing to restore
  }
  for (int fd : g_agent_wake) set_cloexec_nonblock(fd);
  catch_loop_signals(on_agent_signal);
  return Agent().run();
}

}  // namespace distkit_agent
