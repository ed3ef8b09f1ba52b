// --restart: whether a job that ended is started again, and after how long.
// For services (a distributed mlx_lm.server): the whole job restarts, every
// rank, on the same host agents, with the same plan.
#pragma once

#include <chrono>
#include <optional>

#include "distkit/launch/supervisor.hpp"

namespace distkit::launch {

enum class RestartOn {
  no,       // the default
  failure,  // any failure: a rank failed or was lost, a stall, a failed health check
  stall,    // a stall or a failed health check only
};

struct RestartSettings {
  RestartOn on = RestartOn::no;
  int max_restarts = 3;
  // The backoff doubles from 1 s up to this: the host agents, which wait
  // for the next attempt's ranks, end after the heartbeat limit plus a
  // margin without a frame (agent_protocol.hpp), so it is that limit.
  std::chrono::seconds max_backoff{5};
};

// The wait before the next attempt of a job that ended with `ended` after
// `restarts_done` restarts; nothing when it is not restarted (it succeeded,
// a user's signal stopped it, --restart does not cover why it failed, or
// the restarts are used up).
std::optional<std::chrono::milliseconds> restart_after(const RestartSettings& s, int restarts_done,
                                                       const JobResult& ended);

}  // namespace distkit::launch
