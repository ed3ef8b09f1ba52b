// One rank's lifecycle in the agent's loop (rank.hpp). Nothing here blocks:
// the loop calls feed(), exited() and tick() and acts on what they leave
// (said, the pipes, ended()).
#include "rank.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/signal_names.hpp"
#include "group.hpp"
#include "posix_util.hpp"
#include "temp_dir.hpp"

namespace distkit_agent {
namespace {

namespace posix = distkit::posix;

// `key`'s value in `env` (KEY=VALUE lines, the last one wins), else ours.
std::string env_value(const std::vector<std::string>& env, const std::string& key) {
  for (auto e = env.rbegin(); e != env.rend(); ++e)
    if (e->size() > key.size() && e->compare(0, key.size(), key) == 0 && (*e)[key.size()] == '=')
      return e->substr(key.size() + 1);
  const char* v = std::getenv(key.c_str());
  return v ? v : "";
}

// Our environment with `overrides` (KEY=VALUE, later ones win) set over it.
std::vector<std::string> merged_env(const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  for (char** e = environ; *e; ++e) out.emplace_back(*e);
  for (const auto& o : overrides) {
    const std::size_t eq = o.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    auto same = [&](const std::string& e) { return e.compare(0, eq + 1, o, 0, eq + 1) == 0; };
    out.erase(std::remove_if(out.begin(), out.end(), same), out.end());
    out.push_back(o);
  }
  return out;
}

}  // namespace

Rank::Rank(const distkit::agent_frames::StartRequest& request, long heartbeat_limit,
           const std::string& host, double now)
    : host_(host), heartbeat_limit_(heartbeat_limit), env_(request.env) {
  const auto& a = request.args;
  const std::size_t at = 6;
  decltype(distkit::parse_digits("", 1)) grace, cwd_required, forward_stdin, nfiles;
  if (a.size() > at) {
    grace = distkit::parse_digits(a[1], 18);
    cwd_required = distkit::parse_digits(a[3], 18);
    forward_stdin = distkit::parse_digits(a[4], 18);
    nfiles = distkit::parse_digits(a[5], 18);
  }
  if (!grace || !cwd_required || !forward_stdin || !nfiles || *nfiles > 1000 ||
      a.size() < at + 3 * static_cast<std::size_t>(*nfiles) + 1) {
    fail(126, "malformed start request; use the same distkit version on every host");
    return;
  }
  name_ = a[0];
  grace_ticks_ = *grace;
  cwd_ = a[2];
  cwd_required_ = *cwd_required != 0;
  forward_stdin_ = *forward_stdin != 0;
  const auto files_end = a.begin() + static_cast<long>(at + 3 * *nfiles);
  files_.assign(a.begin() + at, files_end);
  command_.assign(files_end, a.end());
  begin(now);
}

void Rank::say(const std::string& msg) {
  // The host as the hostfile names it, as distlaunch's own lines do; the
  // machine's own name (host_) only where no launcher sent one.
  const std::string where = env_value(env_, "DISTKIT_HOST");
  said +=
      "distlaunch: rank " + name_ + " on " + (where.empty() ? host_ : where) + ": " + msg + "\n";
}

void Rank::fail(int code, const std::string& msg) {
  say(msg);
  fail_code_ = code;
  listening_ = false;
  drop_stdin();
}

void Rank::drop_stdin() {
  queue.clear(), queue_off = 0;
  close_fd(in);
}

void Rank::begin(double now) {
  std::string tmp = env_value(env_, "TMPDIR");
  if (tmp.empty()) tmp = "/tmp";
  while (tmp.size() > 1 && tmp.back() == '/') tmp.pop_back();
  const std::string owner = owner_name(host_);
  // What an agent killed with SIGKILL left: one rank of a host per job
  // (local rank 0) sweeps; with all of them, n ranks read n^2 owner files.
  const std::string local_rank = env_value(env_, "DISTKIT_LOCAL_RANK");
  if (local_rank.empty() || local_rank == "0") remove_stale_dirs(tmp, owner);
  dir_ = make_temp_dir(tmp, owner);
  if (dir_.empty()) return fail(126, "cannot create a temp dir; check free space and TMPDIR");
  start_by_ = now + static_cast<double>(heartbeat_limit_) + distkit::kStartFrameMargin;
}

void Rank::feed(std::string_view bytes, double now) {
  if (!listening_) return;
  frames_.feed(bytes);
  while (auto f = frames_.next()) {
    last_frame_ = now;
    if (pid == 0) {  // the first frame carries the secret
      if (f->kind != 'S') return fail(125, "protocol error: no secret frame from the launcher");
      start(f->data);
      if (!listening_) return;
    } else if (f->kind == 'D') {
      if (in >= 0) queue += f->data;
    } else if (f->kind == 'E') {
      close_after = true;
    } else if (f->kind == 'G') {
      if (int sig = distkit::signal_number(f->data)) kill(-pid, sig);
    } else if (f->kind == 'K') {
      kill(-pid, SIGKILL);
    } else if (f->kind == 'T' || !f->kind) {
      // Nothing after a frame we cannot read can be trusted.
      if (!f->kind)
        say("protocol error: unexpected frame '" + f->data + "' from the launcher; rank stopped");
      return stop(now);
    }
  }
}

// The secret into its file, the data files, then the rank in its own
// process group, its stdin a pipe of ours (or /dev/null) and its output
// two more.
void Rank::start(const std::string& secret) {
  mode_t old = umask(077);
  bool ok = write_file(dir_ + "/secret", secret + "\n", 0600);
  umask(old);
  if (!ok) return fail(126, "cannot write " + dir_ + "/secret");
  std::vector<std::string> env = env_;
  env.push_back("DISTKIT_SECRET_FILE=" + dir_ + "/secret");
  env.push_back("DISTKIT_HEARTBEAT_FILE=" + dir_ + "/heartbeat");
  for (std::size_t i = 0; i + 2 < files_.size(); i += 3) {
    const std::string path = dir_ + "/" + files_[i + 1];
    if (files_[i + 1].find('/') != std::string::npos ||
        !write_file(path, files_[i + 2] + "\n", 0644))
      return fail(126, "cannot write " + path);
    env.push_back(files_[i] + "=" + path);
  }
  // A --cwd that is not there: the rank stays put unless it is required.
  struct stat st {};
  const bool cwd_ok = !cwd_.empty() && stat(cwd_.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
                      access(cwd_.c_str(), X_OK) == 0;
  if (!cwd_.empty() && !cwd_ok && cwd_required_)
    return fail(126, "cannot cd to " + cwd_ + "; create it there or fix --cwd");
  posix::Fd in_r, in_w, out_r, out_w, err_r, err_w;  // close-on-exec
  ok = (forward_stdin_ ? posix::make_pipe(in_r, in_w)
                       : (in_r = posix::Fd(open("/dev/null", O_RDONLY | O_CLOEXEC))).valid()) &&
       posix::make_pipe(out_r, out_w) && posix::make_pipe(err_r, err_w);
  if (!ok) {
    const int e = errno;
    return fail(126, std::string("cannot set up the rank's pipes: ") + std::strerror(e) +
                         (e == EMFILE || e == ENFILE ? "; raise the open-file limit (ulimit -n) "
                                                       "or run fewer ranks on this host"
                                                     : ""));
  }
  std::vector<std::string> envs = merged_env(env);
  std::vector<char*> envp;
  envp.reserve(envs.size() + 1);
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  // A relative command path is the cwd's, as it was for a shell there.
  std::vector<std::string> argv = command_;
  if (cwd_ok && argv[0].find('/') != std::string::npos && argv[0][0] != '/')
    argv[0] = cwd_ + "/" + argv[0];
  // posix_spawnp searches our PATH: the rank's, for the search too (one
  // thread: nothing else sees it), as its shell would search it.
  const char* ours = std::getenv("PATH");
  const std::string our_path = ours ? ours : "", rank_path = env_value(env, "PATH");
  if (rank_path != our_path) setenv("PATH", rank_path.c_str(), 1);
  int error = 0;
  pid_t p = posix::spawn_in_new_group(argv, {in_r.get(), out_w.get(), err_w.get()}, error,
                                      envp.data(), cwd_ok ? cwd_.c_str() : nullptr,
                                      g_nofile_raised ? &g_rank_nofile : nullptr);
  if (rank_path != our_path) ours ? setenv("PATH", our_path.c_str(), 1) : unsetenv("PATH");
  if (p < 0) return fail(127, "cannot run " + command_[0] + ": " + std::strerror(error));
  pid = p;
  if (forward_stdin_) in = in_w.release();
  out = out_r.release();
  err = err_r.release();
  for (int fd : {in, out, err})
    if (fd >= 0) posix::set_nonblock(fd);
  // The launcher learns the rank's pid from its stderr (supervisor.cpp).
  said += std::string(distkit::agent_frames::kPidMarker) + std::to_string(p) + "\n";
}

// TERM to its group, KILL after the grace period unless every member is
// gone first (tick).
void Rank::stop(double now) {
  listening_ = false;
  drop_stdin();
  if (pid <= 0 || stopping_ || group_done_) return;
  if (kill(-pid, SIGTERM) != 0) return group_gone_at(now);  // nothing of it is left
  stopping_ = true;
  kill_at_ = now + grace();
  check_every_ = 0.005;
  check_at_ = now + check_every_;
}

// Once it is stopped or has ended (stop() ran), nothing is left to do but
// close its stdin.
void Rank::end_of_stream(double now) {
  if (!listening_) return drop_stdin();
  if (pid == 0) return fail(125, "the launcher closed the connection before the start");
  say("lost the launcher (connection closed); stopping the rank");
  stop(now);
}

// The rank has ended: whatever it left in its group is stopped before it
// is reported, so that nothing of it outlives its X frame.
void Rank::exited(int status, double now) {
  reaped_ = true;
  status_ = status;
  stop(now);
}

double Rank::tick(double now) {
  double next = now + 3600;
  if (fail_code_ >= 0 || group_done_) return next;
  if (pid == 0) {
    if (now >= start_by_) {
      fail(143, "no start frame from the launcher for " + std::to_string(heartbeat_limit_) +
                    "s; giving up");
      return next;
    }
    return start_by_;
  }
  // Running and not stopped yet: it is still listening (stop() is the
  // only way out of that once it runs).
  if (!stopping_) {
    const double limit =
        last_frame_ + static_cast<double>(heartbeat_limit_) + distkit::kHeartbeatMargin;
    if (now < limit) return limit;
    say("no heartbeat from the launcher for " + std::to_string(heartbeat_limit_) +
        "s; stopping the rank");
    stop(now);
    if (!stopping_) return next;
  }
  // Members left once the rank itself is reaped may be zombies: ask.
  if (kill(-pid, 0) != 0 || (reaped_ && now >= check_at_ && group_gone(pid))) {
    group_gone_at(now);
    return next;
  }
  if (now >= kill_at_) {
    kill(-pid, SIGKILL);
    group_gone_at(now);
    return next;
  }
  if (reaped_ && now >= check_at_) {
    check_every_ = std::min(check_every_ * 2, 0.1);
    check_at_ = now + check_every_;
  }
  return std::min(kill_at_, reaped_ ? check_at_ : now + 0.1);
}

// Its group is gone (or was sent SIGKILL): the agent's linger for its
// pipes counts from here.
void Rank::group_gone_at(double now) {
  stopping_ = false;
  group_done_ = true;
  ended_at_ = now;
}

bool Rank::ended() const {
  return fail_code_ >= 0 || (reaped_ && group_done_);
}

int Rank::code() const {
  if (fail_code_ >= 0) return fail_code_;
  return WIFSIGNALED(status_) ? 128 + WTERMSIG(status_) : WEXITSTATUS(status_);
}

void Rank::remove_dir() {
  if (!dir_.empty()) remove_tree(dir_);
  dir_.clear();
}

}  // namespace distkit_agent
