// Line assembly and the single writer for rank output (see output.hpp).
#include "distkit/launch/output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/terminal.hpp"

namespace distkit::launch {

namespace {

// `out`'s reader has left: what stdio still holds, and its flush at exit,
// go to /dev/null. glibc drops a failed write's bytes; macOS keeps them,
// and its flush at exit, when SIGPIPE is no longer ignored, would kill us.
void drop_output(std::FILE* out) {
  const int fd = fileno(out), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd >= 0 && null >= 0) dup2(null, fd);
  if (null >= 0) close(null);
  std::clearerr(out);
}

// Where the line that starts at `at` ends (one past its end), or npos:
// at a '\n', or at a '\r' that a character other than '\n' follows (a
// progress bar redrawn in place, as tqdm does, is a line per redraw; a '\r'
// last in `text` waits: it may be half of "\r\n").
size_t line_end(std::string_view text, size_t at) {
  for (size_t i = text.find_first_of("\r\n", at); i != std::string_view::npos;
       i = text.find_first_of("\r\n", i + 1))
    if (text[i] == '\n' || (i + 1 < text.size() && text[i + 1] != '\n')) return i + 1;
  return std::string_view::npos;
}

// One past the last line end in `text`, or 0 (searched from the end: a
// '\r' that '\n' follows is met after that '\n').
size_t last_line_end(std::string_view text) {
  for (size_t i = text.find_last_of("\r\n"); i != std::string_view::npos;
       i = i == 0 ? std::string_view::npos : text.find_last_of("\r\n", i - 1))
    if (text[i] == '\n' || i + 1 < text.size()) return i + 1;
  return 0;
}

// Calls `f` with each line of `text` (its end included; the last line may
// have none).
template <typename F>
void each_line(std::string_view text, F f) {
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(line_end(text, at), text.size());
    f(text.substr(at, end - at));
    at = end;
  }
}

}  // namespace

void LineAssembler::feed(std::string_view chunk,
                         const std::function<void(std::string_view)>& emit) {
  feed_runs(chunk, [&](std::string_view run) { each_line(run, emit); });
}

void LineAssembler::feed_runs(std::string_view chunk,
                              const std::function<void(std::string_view)>& emit) {
  if (chunk.empty()) {  // the rank paused mid-line
    if (show_pauses_ && !partial_.empty()) let_out(emit);
    return;
  }
  unended_ = false;  // what follows continues a line let out, or ends it
  if (!partial_.empty()) {
    // The held line ends in this chunk, or at the '\r' it ends with.
    size_t end = partial_.back() == '\r' && chunk.front() != '\n' ? 0 : line_end(chunk, 0);
    const bool complete = end != std::string_view::npos;
    if (!complete) end = chunk.size();
    partial_.append(chunk.substr(0, end));
    chunk.remove_prefix(end);
    if (complete) {
      emit(partial_);
      partial_.clear();
    }
  }
  if (partial_.empty()) {  // else still held, and the whole chunk is in it
    const size_t end = last_line_end(chunk);
    if (end > 0) emit(chunk.substr(0, end));
    partial_.append(chunk.substr(end));
  }
  // A line longer than kMaxLine goes out in pieces: memory stays bounded.
  if (partial_.size() >= kMaxLine) let_out(emit);
}

void LineAssembler::flush(const std::function<void(std::string_view)>& emit) {
  if (partial_.empty() && !unended_) return;
  partial_ += '\n';
  emit(partial_);
  partial_.clear();
  unended_ = false;
}

void LineAssembler::let_out(const std::function<void(std::string_view)>& emit) {
  emit(partial_);
  partial_.clear();
  unended_ = true;
}

OutputSink::OutputSink(std::FILE* out, std::FILE* err, bool tag,
                       const std::vector<std::string>& rank_hosts,
                       const std::optional<std::filesystem::path>& log_dir, bool append)
    : out_(out), err_(err) {
  if (tag)
    for (size_t r = 0; r < rank_hosts.size(); ++r)
      prefixes_.push_back("[" + std::to_string(r) + " " + rank_hosts[r] + "] ");
  if (!log_dir) return;
  make_directory<UsageError>(*log_dir, "log directory", "choose a writable --log-dir");
  for (size_t r = 0; r < rank_hosts.size(); ++r) {
    auto path = *log_dir / ("rank-" + std::to_string(r) + ".log");
    std::FILE* f = std::fopen(path.c_str(), append ? "a" : "w");
    if (!f) {
      for (auto* g : logs_) std::fclose(g);
      throw UsageError(path.string(), "cannot open the log file", "choose a writable --log-dir");
    }
    logs_.push_back(f);
  }
}

OutputSink::~OutputSink() {
  for (auto* f : logs_) std::fclose(f);
}

void OutputSink::line(int rank, Stream stream, std::string_view text) {
  std::string buf;
  size_t prefix_size = 0;
  if (rank >= 0 && static_cast<size_t>(rank) < prefixes_.size()) {
    const std::string& prefix = prefixes_[static_cast<size_t>(rank)];
    prefix_size = prefix.size();
    each_line(text, [&](std::string_view l) { buf.append(prefix).append(l); });
  } else {
    buf.assign(text);
  }
  const bool unended = !text.empty() && text.back() != '\n' && text.back() != '\r';
  bool gone_now = false;
  {
    std::lock_guard lock(mu_);
    // Continuing this rank's line let out unended: no second prefix.
    if (open_rank_ == rank && open_stream_ == stream) buf.erase(0, prefix_size);
    end_open_line_locked(rank, stream);
    if (stream == Stream::err)
      write_now(err_, buf);
    else if (!out_gone_ && !write_now(out_, buf) && errno == EPIPE) {
      gone_now = out_gone_ = true;
      drop_output(out_);
    }
    open_rank_ = unended ? rank : -1;
    open_stream_ = stream;
    log_locked(rank, text);
  }
  if (gone_now && out_closed_) out_closed_();  // not under mu_: it takes the job's lock
}

bool OutputSink::is_terminal(Stream stream) const {
  return is_tty(stream == Stream::err ? err_ : out_);
}

void OutputSink::end_open_line_locked(int rank, Stream stream) {
  if (open_rank_ < 0 || (open_rank_ == rank && open_stream_ == stream)) return;
  if (open_stream_ == Stream::err)
    write_now(err_, "\n");
  else if (!out_gone_)
    write_now(out_, "\n");
  open_rank_ = -1;
}

void OutputSink::note(std::string_view text) {
  std::lock_guard lock(mu_);
  end_open_line_locked(-1, Stream::err);
  write_now(err_, std::string(text) + "\n");
}

void OutputSink::stacks(int rank, std::string_view text) {
  std::lock_guard lock(mu_);
  end_open_line_locked(-1, Stream::err);
  write_now(err_, text);
  log_locked(rank, text);
}

void OutputSink::log_locked(int rank, std::string_view text) {
  if (rank >= 0 && static_cast<size_t>(rank) < logs_.size())
    write_now(logs_[static_cast<size_t>(rank)], text);
}

}  // namespace distkit::launch
