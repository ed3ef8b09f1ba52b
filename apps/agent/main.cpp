// distkit-agent: distkit's host side, the one program that starts,
// watches and stops every rank on a host. distlaunch runs it as the host
// agent (agent.hpp) on one channel per host; the agent forks one
// wrapper per rank (run_rank below): private temp dir, own process group,
// secret file, stdin, heartbeat watchdog, TERM -> KILL; it tells the agent
// its rank's pid and temp dir on a status pipe (the agent samples the
// rank's progress and dumps its stacks, agent.cpp).
//   distkit-agent --protocol=4 --host-agent   (distlaunch's, nothing else)
// The protocol number is distkit/launch/agent_protocol.hpp's. A wrapper's
// arguments, as the agent's start request carries them (the heartbeat
// limit comes from the launcher's P frame, through the agent):
//   RANK GRACE_TICKS CWD CWD_REQUIRED STDIN_FORWARDED NFILES
//   [VAR NAME CONTENT]... COMMAND [ARG]...
// A wrapper's exit statuses: the rank's (128+N for signal N), 125 protocol
// error or no launcher, 126 setup failed, 127 command not runnable,
// 129/130/143 when it was sent HUP/INT/TERM, 143 no start frame or heartbeat.
// Depends on libc only, so it starts in well under a millisecond.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "agent.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/signal_names.hpp"
#include "distkit/version.hpp"
#include "group.hpp"
#include "posix_util.hpp"
#include "temp_dir.hpp"

namespace distkit_agent {
namespace {

constexpr const char* kProtocol = distkit::kAgentProtocolFlag;
constexpr std::size_t kBackpressure = 1 << 20;  // queued stdin bytes before we stop reading

struct Args {
  std::string rank = "?";
  long grace_ticks = 30, hb_limit = 5;
  std::string cwd;
  bool cwd_required = false, forward_stdin = false;
  std::vector<std::string> files;  // triples: variable, name, content
  std::vector<std::string> command;
};

int g_status = -1;  // to the agent: "PID DIR\n" once the rank runs

class RankWrapper {
 public:
  explicit RankWrapper(Args a) : a_(std::move(a)) {
    char h[256] = {0};
    if (gethostname(h, sizeof h - 1) == 0 && h[0]) host_ = h;
  }
  int run();

 private:
  void say(const std::string& msg) {
    std::string line = "distlaunch: rank " + a_.rank + " on " + host_ + ": " + msg + "\n";
    (void)!write(2, line.data(), line.size());
  }
  [[noreturn]] void finish(int code) {
    if (pid_ > 0) kill(-pid_, SIGTERM);
    if (!dir_.empty()) remove_tree(dir_);
    _exit(code);
  }
  // Collects the rank's status when it has ended (with `flags` 0: waits for
  // it). False when there is nothing to wait for or waitpid failed (not EINTR).
  bool reap(int flags = WNOHANG) {
    if (have_status_ || pid_ <= 0) return false;
    int st = 0;
    pid_t w = waitpid(pid_, &st, flags);
    if (w == pid_) have_status_ = true, status_ = st;
    return w >= 0 || errno == EINTR;
  }
  // Waits up to `seconds` for stdin, the rank's stdin pipe or a signal;
  // reads and writes what is ready.
  void pump(double seconds);
  void wait_for_secret();
  void write_rank_files();
  void start_rank();
  void stop_group();

  Args a_;
  std::string host_ = "?";
  std::string dir_;
  distkit::agent_frames::FrameStream frames_{distkit::agent_frames::Channel::to_wrapper};
  std::string out_;  // bytes for the rank's stdin not yet written
  bool eof_ = false;
  int wfd_ = -1;  // write end of the rank's stdin pipe
  pid_t pid_ = 0;
  bool have_status_ = false;
  int status_ = 0;
};

void RankWrapper::pump(double seconds) {
  pollfd fds[3];
  nfds_t n = 0;
  int in_i = -1, out_i = -1;
  fds[n++] = {g_wake[0], POLLIN, 0};
  if (!eof_ && out_.size() <= kBackpressure) in_i = static_cast<int>(n), fds[n++] = {0, POLLIN, 0};
  if (wfd_ >= 0 && !out_.empty()) out_i = static_cast<int>(n), fds[n++] = {wfd_, POLLOUT, 0};
  int rc = poll(fds, n, static_cast<int>(seconds * 1000));
  if (rc <= 0) return;
  if (fds[0].revents) drain_pipe(g_wake[0]);
  if (in_i >= 0 && fds[in_i].revents) {
    char buf[65536];
    ssize_t got = read(0, buf, sizeof buf);
    if (got > 0)
      frames_.feed(std::string_view(buf, static_cast<std::size_t>(got)));
    else if (got == 0 || (errno != EINTR && errno != EAGAIN))
      eof_ = true;
  }
  if (out_i >= 0 && fds[out_i].revents) {
    ssize_t put = write(wfd_, out_.data(), out_.size());
    if (put > 0)
      out_.erase(0, static_cast<std::size_t>(put));
    else if (put < 0 && errno != EINTR && errno != EAGAIN) {
      close(wfd_);  // the rank closed its stdin: drop what it did not read
      wfd_ = -1;
      out_.clear();
    }
  }
}

// The first frame carries the secret; it must come within the heartbeat
// limit, else the launcher was killed or cut before sending it.
void RankWrapper::wait_for_secret() {
  double start = now_seconds();
  while (true) {
    if (g_signal) finish(128 + g_signal);
    if (auto f = frames_.next()) {
      if (f->kind != 'S') {
        say("protocol error: no secret frame from the launcher");
        finish(125);
      }
      mode_t old = umask(077);
      bool ok = write_file(dir_ + "/secret", f->data + "\n", 0600);
      umask(old);
      if (!ok) {
        say("cannot write " + dir_ + "/secret");
        finish(126);
      }
      return;
    }
    if (eof_) {
      say("the launcher closed the connection before the start");
      finish(125);
    }
    if (now_seconds() - start >= static_cast<double>(a_.hb_limit) + distkit::kStartFrameMargin) {
      say("no start frame from the launcher for " + std::to_string(a_.hb_limit) + "s; giving up");
      finish(143);
    }
    pump(0.25);
  }
}

void RankWrapper::write_rank_files() {
  setenv("DISTKIT_SECRET_FILE", (dir_ + "/secret").c_str(), 1);
  setenv("DISTKIT_HEARTBEAT_FILE", (dir_ + "/heartbeat").c_str(), 1);
  for (std::size_t i = 0; i + 2 < a_.files.size(); i += 3) {
    const std::string path = dir_ + "/" + a_.files[i + 1];
    if (a_.files[i + 1].find('/') != std::string::npos ||
        !write_file(path, a_.files[i + 2] + "\n", 0644)) {
      say("cannot write " + path);
      finish(126);
    }
    setenv(a_.files[i].c_str(), path.c_str(), 1);
  }
  if (!a_.cwd.empty() && chdir(a_.cwd.c_str()) != 0 && a_.cwd_required) {
    say("cannot cd to " + a_.cwd + "; create it there or fix --cwd");
    finish(126);
  }
}

void RankWrapper::start_rank() {
  namespace posix = distkit::posix;
  posix::Fd in_r, in_w;  // the rank's stdin: ours to feed, or /dev/null
  bool ok = a_.forward_stdin ? posix::make_pipe(in_r, in_w)
                             : (in_r = posix::Fd(open("/dev/null", O_RDONLY | O_CLOEXEC))).valid();
  if (!ok) {  // never leave the rank reading the launcher's frames
    say(std::string("cannot set up the rank's stdin: ") + std::strerror(errno));
    finish(126);
  }
  int err = 0;
  pid_t pid = posix::spawn_in_new_group(a_.command, {in_r.get(), -1, -1}, err);
  if (pid < 0) {
    say("cannot run " + a_.command[0] + ": " + std::strerror(err));
    finish(127);
  }
  pid_ = pid;
  // A signal that came while it started is passed on, as it would have
  // reached the rank's group a moment later.
  if (g_signal) kill(-pid, g_signal);
  if (a_.forward_stdin) {
    wfd_ = in_w.release();
    set_cloexec_nonblock(wfd_);
  }
  std::string marker = "@@distlaunch:pid " + std::to_string(pid) + "\n";
  (void)!write(2, marker.data(), marker.size());
  if (g_status >= 0) write_all(g_status, std::to_string(pid) + " " + dir_ + "\n");
}

// TERM to the rank's group, KILL after the grace period unless every member
// is gone first (zombies aside). SIGCHLD ends each wait early.
void RankWrapper::stop_group() {
  if (pid_ <= 0) return;
  reap();
  if (kill(-pid_, SIGTERM) != 0) return;
  double deadline = now_seconds() + static_cast<double>(a_.grace_ticks) * 0.1;
  int wait_ms = 5;
  while (now_seconds() < deadline) {
    reap();
    if (kill(-pid_, 0) != 0) return;
    // Members left once the rank itself is gone may be zombies: ask.
    if (have_status_ && group_gone(pid_)) return;
    pollfd w = {g_wake[0], POLLIN, 0};
    if (poll(&w, 1, wait_ms) > 0) drain_pipe(g_wake[0]);
    wait_ms = wait_ms * 2 > 100 ? 100 : wait_ms * 2;
  }
  kill(-pid_, SIGKILL);
}

int RankWrapper::run() {
  const char* t = std::getenv("TMPDIR");
  std::string tmp = t && *t ? t : "/tmp";
  while (tmp.size() > 1 && tmp.back() == '/') tmp.pop_back();
  std::string owner = owner_name(host_);
  // What wrappers killed with SIGKILL left: one rank of a host per job
  // (local rank 0) sweeps; with all of them, n ranks read n^2 owner files.
  const char* local_rank = std::getenv("DISTKIT_LOCAL_RANK");
  if (!local_rank || std::strcmp(local_rank, "0") == 0) remove_stale_dirs(tmp, owner);
  dir_ = make_temp_dir(tmp, owner);
  if (dir_.empty()) {
    say("cannot create a temp dir; check free space and TMPDIR");
    _exit(126);
  }
  wait_for_secret();
  write_rank_files();
  start_rank();
  double last_frame = now_seconds();
  time_t tick = time(nullptr);
  bool close_after = false, stopped = false;
  while (true) {
    reap();
    if (have_status_) break;
    if (g_signal) {
      stop_group();
      finish(128 + g_signal);
    }
    while (auto f = frames_.next()) {
      last_frame = now_seconds();
      if (f->kind == 'D') {
        if (wfd_ >= 0) out_ += f->data;
      } else if (f->kind == 'E') {
        close_after = true;
      } else if (f->kind == 'G') {
        if (int sig = distkit::signal_number(f->data)) kill(-pid_, sig);
      } else if (f->kind == 'K') {
        kill(-pid_, SIGKILL);
      } else if (f->kind == 'T' || !f->kind) {
        stop_group();
        if (!f->kind)  // nothing after a frame we cannot read can be trusted
          say("protocol error: unexpected frame '" + f->data + "' from the launcher; rank stopped");
        stopped = true;
        break;
      }
    }
    if (close_after && wfd_ >= 0 && out_.empty()) close(wfd_), wfd_ = -1;
    if (stopped) break;
    if (eof_) {
      // Stop first, then say: with the link cut, a full stderr pipe can
      // block the message for as long as sshd takes to notice.
      stop_group();
      say("lost the launcher (connection closed); stopping the rank");
      break;
    }
    // The heartbeat check, once per wall-clock second (the loop wakes at
    // least every 0.25 s).
    if (time(nullptr) != tick) {
      tick = time(nullptr);
      double now = now_seconds();
      // Heartbeats queue behind stdin data we are not reading: no miss then.
      if (out_.size() > kBackpressure) last_frame = now;
      if (now - last_frame >= static_cast<double>(a_.hb_limit) + distkit::kHeartbeatMargin) {
        stop_group();
        say("no heartbeat from the launcher for " + std::to_string(a_.hb_limit) +
            "s; stopping the rank");
        break;
      }
    }
    pump(0.25);
  }
  // The rank has ended or was stopped: whatever it left in its group is
  // stopped before we leave, and we exit as a shell would for it.
  stop_group();
  while (reap(0)) {
  }
  int code = !have_status_          ? 0
             : WIFSIGNALED(status_) ? 128 + WTERMSIG(status_)
                                    : WEXITSTATUS(status_);
  finish(code);
}

// The start request's arguments (RANK first) in `a`; else the problem
// with them. The protocol was checked once, by the agent's own command line.
const char* parse_args(int argc, char** argv, Args& a) {
  if (argc < 6) return "too few arguments";
  const int at = 6;
  auto grace = distkit::parse_digits(argv[1], 18),
       cwd_required = distkit::parse_digits(argv[3], 18),
       forward_stdin = distkit::parse_digits(argv[4], 18),
       nfiles = distkit::parse_digits(argv[5], 18);
  if (!grace || !cwd_required || !forward_stdin || !nfiles || *nfiles > 1000 ||
      argc < at + 3 * *nfiles + 1)
    return "malformed arguments";
  a.rank = argv[0];
  a.grace_ticks = *grace;
  a.cwd = argv[2];
  a.cwd_required = *cwd_required != 0;
  a.forward_stdin = *forward_stdin != 0;
  a.files.assign(argv + at, argv + at + 3 * *nfiles);
  a.command.assign(argv + at + 3 * *nfiles, argv + argc);
  return nullptr;
}

}  // namespace

// The wrapper for one rank, from its start request's arguments (RANK
// first). Called in a child of the host agent (agent.cpp), which has reset
// its signal dispositions and given it its own stdin, stdout and stderr.
int run_rank(int argc, char** argv, long heartbeat_limit, int status_fd) {
  g_status = status_fd;
  Args a;
  a.hb_limit = heartbeat_limit;
  if (const char* problem = parse_args(argc, argv, a)) {
    std::fprintf(
        stderr,
        "distlaunch: rank %s: distkit-agent: %s; it is started by distlaunch, not by hand\n",
        argc >= 1 ? argv[0] : "?", problem);
    return 126;
  }
  if (!catch_loop_signals()) return 126;
  return RankWrapper(std::move(a)).run();
}

}  // namespace distkit_agent

int main(int argc, char** argv) {
  using namespace distkit_agent;
  if (argc == 3 && std::strcmp(argv[1], kProtocol) == 0 &&
      std::strcmp(argv[2], "--host-agent") == 0)
    return run_agent();
  // Another protocol, or a rank's arguments by hand: ranks come only
  // through the agent (one implementation of the host side).
  std::fprintf(stderr,
               "distkit-agent: this is distkit %s's host agent (%s); distlaunch starts it, "
               "not a user%s\n",
               distkit::kVersion, kProtocol,
               argc >= 2 && std::strncmp(argv[1], "--protocol=", 11) == 0 &&
                       std::strcmp(argv[1], kProtocol) != 0
                   ? "; the launcher speaks another protocol: install the same distkit version "
                     "on every host"
                   : "");
  return 126;
}
