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

// Calls `f` with each line of `text` (its '\n' included; the last line may
// have none).
template <typename F>
void each_line(std::string_view text, F f) {
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(text.find('\n', at), text.size() - 1) + 1;
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
  size_t last = chunk.rfind('\n');
  if (last == std::string_view::npos) {
    partial_.append(chunk);
    return;
  }
  size_t start = 0;
  if (!partial_.empty()) {
    start = chunk.find('\n') + 1;
    partial_.append(chunk.substr(0, start));
    emit(partial_);
    partial_.clear();
  }
  if (start <= last) emit(chunk.substr(start, last + 1 - start));
  partial_.append(chunk.substr(last + 1));
}

void LineAssembler::flush(const std::function<void(std::string_view)>& emit) {
  if (partial_.empty()) return;
  partial_ += '\n';
  emit(partial_);
  partial_.clear();
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
  if (rank >= 0 && static_cast<size_t>(rank) < prefixes_.size()) {
    const std::string& prefix = prefixes_[static_cast<size_t>(rank)];
    each_line(text, [&](std::string_view l) { buf.append(prefix).append(l); });
  } else {
    buf.assign(text);
  }
  bool gone_now = false;
  {
    std::lock_guard lock(mu_);
    if (stream == Stream::err)
      write_now(err_, buf);
    else if (!out_gone_ && !write_now(out_, buf) && errno == EPIPE) {
      gone_now = out_gone_ = true;
      drop_output(out_);
    }
    log_locked(rank, text);
  }
  if (gone_now && out_closed_) out_closed_();  // not under mu_: it takes the job's lock
}

void OutputSink::note(std::string_view text) {
  std::lock_guard lock(mu_);
  write_now(err_, std::string(text) + "\n");
}

void OutputSink::stacks(int rank, std::string_view text) {
  std::lock_guard lock(mu_);
  write_now(err_, text);
  log_locked(rank, text);
}

void OutputSink::log_locked(int rank, std::string_view text) {
  if (rank >= 0 && static_cast<size_t>(rank) < logs_.size())
    write_now(logs_[static_cast<size_t>(rank)], text);
}

}  // namespace distkit::launch
