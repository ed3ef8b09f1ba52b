// See progress.hpp. The board is erased and redrawn with two ANSI
// sequences (cursor up, clear to end of screen) that every terminal the
// tools meet understands (Terminal.app, iTerm2, xterm, tmux).
#include "distkit/util/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "distkit/util/strings.hpp"
#include "distkit/util/terminal.hpp"

namespace distkit {
namespace {

// "probing", "failed: <detail>": a host's state and its detail, as the
// board's rows and `lines` mode's lines show them.
std::string state_text(const HostProgress& h, std::string_view verb) {
  // Indexed by HostState (declaration order in progress.hpp).
  constexpr const char* kWords[] = {"waiting", "connecting", "", "done", "failed"};
  std::string text =
      h.state == HostState::working ? std::string(verb) : kWords[static_cast<std::size_t>(h.state)];
  return h.detail.empty() ? text : text + ": " + h.detail;
}

std::string clip(std::string s, std::size_t width) {
  if (width > 1 && s.size() > width) s = s.substr(0, width - 1) + "~";
  return s;
}

// "probing 8 hosts (2.4 s): 5 done, 1 failed, 2 running"
std::string header_line(const std::vector<HostProgress>& hosts, std::string_view verb,
                        std::chrono::milliseconds elapsed) {
  std::size_t done = 0, failed = 0;
  for (const auto& h : hosts) {
    if (h.state == HostState::done) ++done;
    if (h.state == HostState::failed) ++failed;
  }
  std::string line = std::string(verb) + " " + std::to_string(hosts.size()) +
                     (hosts.size() == 1 ? " host" : " hosts") + " (" +
                     seconds_text(static_cast<double>(elapsed.count()) / 1000.0) +
                     "): " + std::to_string(done) + " done";
  if (failed > 0) line += ", " + std::to_string(failed) + " failed";
  const std::size_t running = hosts.size() - done - failed;
  if (running > 0) line += ", " + std::to_string(running) + " running";
  return line;
}

// Names hosts in `state`, for the one-line summary of a large board.
std::string names_in(const std::vector<HostProgress>& hosts, bool failed) {
  std::string out;
  for (const auto& h : hosts) {
    const bool is_failed = h.state == HostState::failed;
    const bool is_running = h.state != HostState::done && !is_failed;
    if (failed ? is_failed : is_running) out += (out.empty() ? "" : " ") + h.host;
  }
  return out;
}

// The terminal's rows and columns (24 x 80 when `out` is not a terminal).
std::pair<std::size_t, std::size_t> terminal_size(std::FILE* out) {
  winsize ws{};
  const bool known = ::ioctl(::fileno(out), TIOCGWINSZ, &ws) == 0;
  return {known && ws.ws_row > 0 ? ws.ws_row : 24, known && ws.ws_col > 0 ? ws.ws_col : 80};
}

}  // namespace

ProgressMode choose_progress_mode(std::FILE* stream, bool verbose) {
  if (verbose) return ProgressMode::lines;
  return is_tty(stream) ? ProgressMode::live : ProgressMode::off;
}

std::vector<std::string> render_progress(const std::vector<HostProgress>& hosts,
                                         std::string_view verb, std::chrono::milliseconds elapsed,
                                         std::size_t width, std::size_t max_lines, bool color) {
  std::vector<std::string> lines{clip(header_line(hosts, verb, elapsed), width)};
  if (hosts.size() + 1 > std::max<std::size_t>(max_lines, 1)) {
    // Too many hosts for one line each: name only what needs attention.
    const std::string failed = names_in(hosts, true);
    const std::string running = names_in(hosts, false);
    std::string tail;
    if (!failed.empty()) tail += "; failed: " + failed;
    if (!running.empty()) tail += "; running: " + running;
    lines[0] = clip(lines[0] + tail, width);
    return lines;
  }
  std::size_t name_width = 0;
  for (const auto& h : hosts) name_width = std::max(name_width, h.host.size());
  for (const auto& h : hosts) {
    std::string text =
        clip("  " + h.host + std::string(name_width - h.host.size() + 2, ' ') + state_text(h, verb),
             width);
    if (h.state == HostState::done) text = colorize(text, Color::green, color);
    if (h.state == HostState::failed) text = colorize(text, Color::red, color);
    lines.push_back(std::move(text));
  }
  return lines;
}

ProgressBoard::ProgressBoard(std::vector<std::string> hosts, std::string verb, std::FILE* out,
                             ProgressMode mode, Timing timing)
    : verb_(std::move(verb)),
      out_(out),
      mode_(mode),
      timing_(timing),
      color_(mode == ProgressMode::live && use_color(out)),
      start_(std::chrono::steady_clock::now()) {
  hosts_.reserve(hosts.size());
  for (auto& h : hosts) hosts_.push_back(HostProgress{std::move(h), HostState::waiting, {}});
  if (mode_ == ProgressMode::live && !hosts_.empty())
    ticker_ = std::thread([this] { run_ticker(); });
}

ProgressBoard::~ProgressBoard() {
  finish();
}

void ProgressBoard::set(std::size_t index, HostState state, std::string_view detail) {
  std::lock_guard lock(mutex_);
  if (index >= hosts_.size()) return;
  auto& h = hosts_[index];
  if (h.state == state && h.detail == detail) return;
  h.state = state;
  h.detail = std::string(detail);
  if (mode_ == ProgressMode::lines && !finished_) {
    std::fprintf(out_, "%s: %s\n", h.host.c_str(), state_text(h, verb_).c_str());
    std::fflush(out_);
  }
}

void ProgressBoard::finish() {
  {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  std::lock_guard lock(mutex_);
  erase_locked();
}

void ProgressBoard::run_ticker() {
  std::unique_lock lock(mutex_);
  if (wake_.wait_for(lock, timing_.delay, [this] { return finished_; })) return;
  while (!finished_) {
    draw_locked();
    wake_.wait_for(lock, timing_.tick, [this] { return finished_; });
  }
}

void ProgressBoard::erase_locked() {
  if (drawn_lines_ == 0) return;
  std::fprintf(out_, "\033[%zuA\033[J", drawn_lines_);
  std::fflush(out_);
  drawn_lines_ = 0;
}

void ProgressBoard::draw_locked() {
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start_);
  const auto [rows, columns] = terminal_size(out_);
  const auto lines = render_progress(hosts_, verb_, elapsed, columns,
                                     std::min<std::size_t>(rows > 2 ? rows - 2 : 1, 16), color_);
  erase_locked();
  for (const auto& line : lines) std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
  drawn_lines_ = lines.size();
}

}  // namespace distkit
