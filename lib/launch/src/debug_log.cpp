// DebugLog (debug_log.hpp) on spdlog: its thread-safe file sink serializes
// lines from the hosts' I/O threads and the supervisor's, and its pattern
// gives each a millisecond timestamp; a logger of our own (not registered),
// so nothing else in the process shares or reconfigures it.
#include "distkit/launch/debug_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include "distkit/util/error.hpp"

namespace distkit::launch {

DebugLog::DebugLog(const std::filesystem::path& file) {
  // Created 0600 before spdlog opens it: the log names hosts, paths and
  // commands, which are the user's business.
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0)
    throw UsageError("--debug-log", "cannot write " + file.string() + ": " + std::strerror(errno),
                     "give a file in a directory you can write");
  ::close(fd);
  try {
    auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file.string(), false);
    logger_ = std::make_shared<spdlog::logger>("distlaunch", std::move(sink));
  } catch (const spdlog::spdlog_ex& e) {
    throw UsageError("--debug-log", "cannot write " + file.string() + ": " + e.what(),
                     "give a file in a directory you can write");
  }
  logger_->set_pattern("%Y-%m-%dT%H:%M:%S.%e %v");
  logger_->set_level(spdlog::level::info);
  logger_->flush_on(spdlog::level::info);
}

DebugLog::~DebugLog() = default;

void DebugLog::line(std::string_view subject, std::string_view what) const {
  if (logger_) logger_->info("{}: {}", subject, what);
}

}  // namespace distkit::launch
