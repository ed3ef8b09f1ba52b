// Test harness: N ranks of a group as threads of this process, each with its
// own Config on free 127.0.0.1 ports (distbench's --threads harness,
// distkit/bench/distbench.hpp), with test timeouts.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distkit/bench/distbench.hpp"
#include "distkit/runtime/group.hpp"

namespace distkit::rt::test {

using bench::loopback_endpoints;

// n distinct free 127.0.0.1 ports (for a hostfile the test writes), picked
// together so that no two are the same.
inline std::vector<uint16_t> free_ports(int n) {
  std::vector<uint16_t> ports;
  for (const auto& rank : loopback_endpoints(n)) ports.push_back(rank[0].port);
  return ports;
}

inline Config base_config(int n, int per_rank = 1) {
  Config c;
  c.endpoints = loopback_endpoints(n, per_rank);
  c.secret = "0123456789abcdef0123456789abcdef";
  c.timeout = std::chrono::milliseconds(5000);
  c.connect_timeout = std::chrono::milliseconds(5000);
  c.chunk_bytes = 4096;
  c.small_bytes = 1024;
  return c;
}

struct RankResult {
  std::string error;  // what() of the first exception, "" if none
  int code = 0;
  int peer = -1;
};

// Runs fn(group) on every rank in its own thread (distbench's
// run_rank_threads); per-rank config tweaks via `adjust`. Returns each
// rank's outcome.
inline std::vector<RankResult> run_ranks(const Config& base, const std::function<void(Group&)>& fn,
                                         const std::function<void(Config&)>& adjust = {}) {
  auto errors = bench::run_rank_threads(base, [&](Config& c) {
    if (adjust) adjust(c);
    auto g = Group::create(c);
    fn(*g);
  });
  std::vector<RankResult> out(errors.size());
  for (size_t r = 0; r < errors.size(); ++r) {
    if (!errors[r]) continue;
    try {
      std::rethrow_exception(errors[r]);
    } catch (const Error& e) {
      out[r] = {e.what(), static_cast<int>(e.code()), e.peer()};
    } catch (const std::exception& e) {
      out[r] = {std::string("std: ") + e.what(), -1, -1};
    }
  }
  return out;
}

}  // namespace distkit::rt::test
