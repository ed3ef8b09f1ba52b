// distlaunch --debug-log FILE: a timestamped record of a job, for when it
// went wrong and the rank output alone does not say why: each host's
// connection, its agent and that agent's answer to the preflight, every
// rank's start and end, every decision of the supervisor (stop, kill,
// forwarded signal, abort; not the heartbeats), and the job's result.
// Written from any thread as things happen and flushed at each line, so a
// distlaunch killed mid-job leaves what it had. The rank output itself
// goes to stdout and --log-dir, not here; the secret never does.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

namespace spdlog {
class logger;
}

namespace distkit::launch {

class DebugLog {
 public:
  DebugLog() = default;  // off: every line() is a no-op
  // Appends to `file` (created 0600 if absent); throws UsageError naming
  // --debug-log when it cannot be opened.
  explicit DebugLog(const std::filesystem::path& file);
  ~DebugLog();
  DebugLog(const DebugLog&) = delete;
  DebugLog& operator=(const DebugLog&) = delete;

  bool on() const { return logger_ != nullptr; }
  // "<time> <subject>: <what>": the subject is a host, "rank R on H" or "job".
  void line(std::string_view subject, std::string_view what) const;

 private:
  std::shared_ptr<spdlog::logger> logger_;
};

}  // namespace distkit::launch
