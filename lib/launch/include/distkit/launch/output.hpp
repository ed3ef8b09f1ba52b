// Rank output as whole lines. Each rank's stdout and stderr arrive as raw
// chunks from the executors' I/O threads; a LineAssembler per stream cuts
// them into lines, and one OutputSink writes every line in one call under one
// lock, so lines of different ranks never interleave inside a line. Optional
// `[rank] ` prefix (--tag-output) and per-rank log files (--log-dir).
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::launch {

// A line ends at '\n', or at a '\r' not followed by '\n' (a progress bar's
// redraw). One that reaches kMaxLine unended is let out as it is then.
// An empty chunk is the host agent's word that the rank paused in the
// middle of a line (distkit-agent(1): an empty O or R frame); with
// `show_pauses` the held line is then let out as it is, unended (a
// prompt, or tokens streamed without a newline, show on a terminal as
// they come); otherwise the line waits for its end.
class LineAssembler {
 public:
  static constexpr size_t kMaxLine = size_t{1} << 20;
  explicit LineAssembler(bool show_pauses = false) : show_pauses_(show_pauses) {}
  // Calls `emit` with each complete line (including its end).
  void feed(std::string_view chunk, const std::function<void(std::string_view)>& emit);
  // Calls `emit` with the chunk's complete lines in at most two runs of
  // whole lines (one finished from earlier bytes, then the rest): one
  // write per chunk, not per line, for a rank that prints a lot. A held
  // line that reaches kMaxLine follows as one more piece.
  void feed_runs(std::string_view chunk, const std::function<void(std::string_view)>& emit);
  // End of stream: what is left goes out as a line with '\n' appended; a
  // line already let out unended gets its '\n'.
  void flush(const std::function<void(std::string_view)>& emit);

 private:
  void let_out(const std::function<void(std::string_view)>& emit);
  std::string partial_;
  bool show_pauses_;
  bool unended_ = false;  // what went out last was a line let out unended
};

enum class Stream { out, err };

class OutputSink {
 public:
  // `out`/`err` receive the ranks' stdout/stderr lines; with `tag` each is
  // prefixed "[<rank> <host>] " (`rank_hosts[r]` is rank r's host). With
  // `log_dir`, each rank's lines (both streams, in arrival order, never
  // prefixed) also go to `<log_dir>/rank-<N>.log`; the directory is
  // created; `append`: after what the files hold (a restarted job's).
  // Throws distkit::Error when it cannot be.
  OutputSink(std::FILE* out, std::FILE* err, bool tag, const std::vector<std::string>& rank_hosts,
             const std::optional<std::filesystem::path>& log_dir, bool append = false);
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  // Writes whole lines (each ending in '\n', in one write; with `tag`,
  // each prefixed); thread-safe. Once `out` is a pipe whose reader has
  // left (EPIPE), ranks' stdout lines only reach their log files, and
  // `closed` (set_out_closed) is called, once, on the writing thread.
  // `text` may end unended (a line let out at a pause): the same rank's
  // next text on that stream continues it (no second prefix), and any
  // other write first ends it with '\n', so that nothing is written
  // inside another rank's line.
  void line(int rank, Stream stream, std::string_view text);
  // True when `stream` goes to a terminal: there a line let out at a
  // pause is shown (LineAssembler's show_pauses); a pipe or a file keeps
  // getting whole lines.
  bool is_terminal(Stream stream) const;
  void set_out_closed(std::function<void()> closed) { out_closed_ = std::move(closed); }
  // A diagnostic of distlaunch itself on `err` (never tagged, not logged).
  void note(std::string_view text);
  // A rank's stacks (lines ending in '\n'): on `err` like a note, and in
  // the rank's log file with --log-dir.
  void stacks(int rank, std::string_view text);

 private:
  void log_locked(int rank, std::string_view text);    // to rank's --log-dir file, if any
  void end_open_line_locked(int rank, Stream stream);  // unless it is rank's on stream

  std::mutex mu_;
  std::FILE* out_;
  std::FILE* err_;
  std::vector<std::string> prefixes_;  // per rank; empty when not tagging
  std::vector<std::FILE*> logs_;
  std::function<void()> out_closed_;
  bool out_gone_ = false;  // under mu_
  // Under mu_: the rank and stream whose line let out unended was written
  // last (rank -1: none), for the next write to continue or end it.
  int open_rank_ = -1;
  Stream open_stream_ = Stream::out;
};

}  // namespace distkit::launch
