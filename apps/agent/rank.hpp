// One rank on this host, as the agent's loop (agent.cpp) runs it: its
// private temp dir, its start on the launcher's secret frame, its own
// process group, its stdin queue, the start-frame and heartbeat watchdogs,
// TERM -> KILL, and the status the agent reports for it (X). The agent is
// the rank's parent: no process of ours stands between them, so ending a
// job costs the ranks' own exits and nothing more (bench/README, teardown).
//
// Its start request's arguments (distkit-agent(1), PROTOCOL; the heartbeat
// limit comes from the launcher's P frame):
//   RANK GRACE_TICKS CWD CWD_REQUIRED STDIN_FORWARDED NFILES
//   [VAR NAME CONTENT]... COMMAND [ARG]...
// Its statuses: the rank's (128+N for signal N), 125 protocol error or no
// launcher, 126 setup failed, 127 command not runnable, 143 no start frame.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/launch/agent_frames.hpp"

namespace distkit_agent {

// The open-file limit a rank gets when the agent raised its own
// (run_agent): the one it had before, what a channel of its own would give.
inline rlimit g_rank_nofile{};
inline bool g_nofile_raised = false;

class Rank {
 public:
  // From its start request: sweeps dead ranks' temp dirs (local rank 0
  // only: one a host and job), creates its own, and waits for the secret
  // frame. A malformed request ends it at once (126).
  Rank(const distkit::agent_frames::StartRequest& request, long heartbeat_limit,
       const std::string& host, double now);
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;
  // The launcher's bytes for it (the agent's I frames): its frames
  // (agent_frames.hpp, Channel::to_rank), acted on as they complete.
  void feed(std::string_view bytes, double now);
  // The launcher's stream for it has ended (C, A, or the launcher is
  // gone): a running rank is stopped, and its stdin closed.
  void end_of_stream(double now);
  // Its process ended with `status` (waitpid's).
  void exited(int status, double now);
  // The watchdogs and a stop's progress; returns when it next needs a look.
  double tick(double now);

  // Its process runs (or is a zombie not reaped yet).
  bool running() const { return pid > 0 && !reaped_; }
  // true once its status is known and nothing of its group is left.
  bool ended() const;
  double ended_at() const { return ended_at_; }
  // Its status for the X frame (the shell's convention: 128+N for signal N).
  int code() const;
  // Removes its temp dir (once it is reported).
  void remove_dir();
  // The rank's DISTKIT_HEARTBEAT_FILE ("" before it runs).
  std::string heartbeat_file() const { return pid > 0 ? dir_ + "/heartbeat" : ""; }
  // Closes its stdin now, dropping what is queued for it.
  void drop_stdin();
  // Its private temp dir ("" once removed).
  const std::string& dir() const { return dir_; }
  // Seconds a stop gives it from TERM to KILL.
  double grace() const { return static_cast<double>(grace_ticks_) * 0.1; }

  // The loop's ends of the rank's stdin, stdout and stderr (-1: closed).
  int in = -1, out = -1, err = -1;
  std::string queue;  // stdin bytes, written up to queue_off
  std::size_t queue_off = 0;
  bool close_after = false;  // E received: close stdin once queue is written
  pid_t pid = 0;             // the rank's pid, which is its process group; 0 before it runs
  std::string said;          // our own stderr lines about it, for the launcher (R)
  // When what was sent of its stdout and stderr (O, R) last went into the
  // middle of a line (-1: it ends at a line end), for the pause frames.
  double out_open_since = -1, err_open_since = -1;

 private:
  void say(const std::string& msg);
  void fail(int code, const std::string& msg);
  void start(const std::string& secret);
  void stop(double now);
  void begin(double now);
  void group_gone_at(double now);

  std::string name_ = "?", host_;
  long heartbeat_limit_ = 5, grace_ticks_ = 30;
  std::string cwd_;
  bool cwd_required_ = false, forward_stdin_ = false;
  std::vector<std::string> env_;    // KEY=VALUE over the agent's environment
  std::vector<std::string> files_;  // triples: variable, name, content
  std::vector<std::string> command_;
  distkit::agent_frames::FrameStream frames_{distkit::agent_frames::Channel::to_rank};
  std::string dir_;
  double start_by_ = 0, last_frame_ = 0;
  int fail_code_ = -1;   // >= 0: it ended (or never started) with this
  bool reaped_ = false;  // its process's status is in status_
  int status_ = 0;
  bool listening_ = true;    // false once stopped or ended: later frames are dropped
  bool stopping_ = false;    // TERM sent to its group; KILL at kill_at_
  bool group_done_ = false;  // nothing of its group is left (or KILL was sent)
  double kill_at_ = 0, check_at_ = 0, check_every_ = 0;
  double ended_at_ = 0;
};

}  // namespace distkit_agent
