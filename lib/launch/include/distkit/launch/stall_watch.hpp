// Progress of every rank, for --stall-timeout: what counts as progress, when
// the job last made any, and the stall report. Pure (no clock reads, no
// I/O), fed by the supervisor's policy, so it is tested with a fake clock.
//
// Progress of a rank is any of: a line of output; bytes of stdin that
// distlaunch sent it; more bytes read or written by its processes than in
// the host agent's previous sample (Linux: /proc/PID/io, every read and
// write, sockets and pipes included; macOS: disk bytes only); a change of
// its DISTKIT_HEARTBEAT_FILE's mtime. CPU time is not progress: a rank
// spinning in a collective that waits for a dead peer burns a core. The
// report gives each rank's CPU over the window so that a user can tell a
// rank blocked (idle) from one spinning.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace distkit::launch {

// One sample of a rank's processes, as its host agent's M frame says
// (-1: not known there).
struct ProgressSample {
  long long io_bytes = -1;
  long long cpu_ms = -1;
  long long heartbeat_ms = -1;  // the heartbeat file's mtime; -1: no file
};

class StallWatch {
 public:
  using Time = std::chrono::steady_clock::time_point;
  struct RankName {
    int rank = 0;
    std::string host;
  };

  // `limit`: no progress of any running rank for this long is a stall; 0: off.
  StallWatch(std::vector<RankName> ranks, std::chrono::milliseconds limit);

  void start(Time now);  // the ranks started: the first window begins
  void output(size_t rank, Time now);
  void fed(size_t rank, Time now);
  void sampled(size_t rank, const ProgressSample& s, Time now);
  void ended(size_t rank);

  bool on() const { return limit_.count() > 0; }
  // The newest progress of a rank still running (start() when none yet).
  Time last_progress() const;
  // When the job is stalled if nothing happens first (Time::max(): off, or
  // no rank runs).
  Time deadline() const;
  // The report, a line each: the stall, then one per running rank with
  // its last output, I/O and CPU over the window and a verdict.
  std::vector<std::string> report(Time now) const;

 private:
  struct Rank {
    RankName name;
    bool running = true;
    Time progress{};  // its newest progress
    std::optional<Time> last_output;
    // Samples covering the window, oldest first (one before it kept as the
    // baseline of the window's differences).
    std::deque<std::pair<Time, ProgressSample>> samples;
  };
  void progressed(Rank& r, Time now);

  std::vector<Rank> ranks_;
  std::chrono::milliseconds limit_;
  Time started_{};
};

}  // namespace distkit::launch
