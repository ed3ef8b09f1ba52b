// Per-host progress for operations that fan out to many hosts at once
// (distconfig probing, distlaunch starting ranks). A lab technician at a
// terminal should see which host is slow or failed while it happens; a
// script reading our stderr must see no cursor games, so the live board is
// drawn only on a TTY and everything else is plain lines or nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace distkit {

enum class HostState { waiting, connecting, working, done, failed };

// How progress is shown. `live` redraws a board in place (TTY only);
// `lines` prints one plain line per state change (e.g. under --verbose or
// when stderr is a log file); `off` prints nothing.
enum class ProgressMode { off, lines, live };

// The usual choice: live on a TTY, lines when `verbose` and not a TTY,
// otherwise off. (Under --verbose on a TTY the verbose log lines would
// fight a redrawn board, so those get plain lines too.)
ProgressMode choose_progress_mode(std::FILE* stream, bool verbose);

struct HostProgress {
  std::string host;
  HostState state = HostState::waiting;
  std::string detail;  // e.g. the error text when failed, "3 ranks"
};

// Renders the board as lines no wider than `width` columns (pure: tested
// without a terminal). At most `max_lines` lines: with more hosts than
// that, one summary line counts hosts per state and names the ones still
// running and the ones that failed. `verb` names the work ("probing").
std::vector<std::string> render_progress(const std::vector<HostProgress>& hosts,
                                         std::string_view verb, std::chrono::milliseconds elapsed,
                                         std::size_t width, std::size_t max_lines, bool color);

// A thread-safe board. Hosts report from any thread with set(); in live
// mode a ticker thread redraws every `tick` once `delay` has passed (quick
// operations never draw anything) and finish() erases the board so the
// tool's report starts on a clean screen. Destruction calls finish().
class ProgressBoard {
 public:
  struct Timing {
    std::chrono::milliseconds delay{400};
    std::chrono::milliseconds tick{150};
  };

  ProgressBoard(std::vector<std::string> hosts, std::string verb, std::FILE* out, ProgressMode mode,
                Timing timing);
  ProgressBoard(std::vector<std::string> hosts, std::string verb, std::FILE* out, ProgressMode mode)
      : ProgressBoard(std::move(hosts), std::move(verb), out, mode, Timing{}) {}
  ~ProgressBoard();
  ProgressBoard(const ProgressBoard&) = delete;
  ProgressBoard& operator=(const ProgressBoard&) = delete;

  // Records host `index`'s new state; out-of-range indices are ignored.
  void set(std::size_t index, HostState state, std::string_view detail = {});
  void finish();

 private:
  void run_ticker();
  void draw_locked();
  void erase_locked();

  std::vector<HostProgress> hosts_;
  std::string verb_;
  std::FILE* out_;
  ProgressMode mode_;
  Timing timing_;
  bool color_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::size_t drawn_lines_ = 0;
  std::thread ticker_;
};

}  // namespace distkit
