// restart_after (restart.hpp).
#include "distkit/launch/restart.hpp"

#include <algorithm>

namespace distkit::launch {

std::optional<std::chrono::milliseconds> restart_after(const RestartSettings& s, int restarts_done,
                                                       const JobResult& ended) {
  if (ended.exit_code == 0 || ended.interrupted || restarts_done >= s.max_restarts) return {};
  if (s.on == RestartOn::no || (s.on == RestartOn::stall && !ended.stalled)) return {};
  const auto cap = std::chrono::duration_cast<std::chrono::milliseconds>(s.max_backoff);
  std::chrono::milliseconds wait{1000};
  for (int i = 0; i < restarts_done && wait < cap; ++i) wait *= 2;
  return std::min(wait, std::max(cap, std::chrono::milliseconds{1000}));
}

}  // namespace distkit::launch
