// How a group finds its peers: every rank's listening endpoints, the per-job
// secret, and the timeouts. Filled from the environment distlaunch (or
// mlx.launch) gives a rank, or built by hand for tests and embedding.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/runtime/types.hpp"

namespace distkit::rt {

struct Endpoint {
  std::string host;  // IPv4/IPv6 literal or resolvable name
  uint16_t port = 0;
};

struct Config {
  int rank = 0;
  // endpoints[r] = where rank r listens (MLX ring hostfile order). Between
  // ranks i and j, min(|endpoints[i]|, |endpoints[j]|) striped connections
  // are opened (capped by max_stripes).
  std::vector<std::vector<Endpoint>> endpoints;
  // Raw secret bytes shared by every rank of the job. Empty is only allowed
  // together with insecure = true.
  std::string secret;
  bool insecure = false;
  // A call fails when a peer makes no progress for this long.
  std::chrono::milliseconds timeout{30000};
  // Connection setup (all peers reachable and authenticated) deadline.
  std::chrono::milliseconds connect_timeout{60000};
  int max_stripes = 8;
  // Pipelining unit of the ring algorithms, in bytes.
  size_t chunk_bytes = size_t{256} * 1024;
  // all-reduce payloads up to small_bytes * size / 2 bytes use recursive
  // doubling, larger ones the bidirectional ring (crossover measured with
  // bench/runtime_switch_point.sh: ~64 KiB at 2 ranks, ~128 KiB at 4).
  size_t small_bytes = size_t{64} * 1024;
  // Before blocking in poll(), a latency-bound step (every transfer at most
  // 64 KiB) polls without blocking, yielding the CPU between tries, for up
  // to this long: a wake-up from poll() costs several microseconds, which is
  // most of an 8-byte all-reduce. The yield keeps ranks that share a core
  // from starving each other (SPEC section 8). 0 turns it off.
  std::chrono::microseconds spin{20};
  // When set, touched (created if missing) at start-up and whenever a
  // call completes, at most once a second: distlaunch reports a rank whose
  // file goes stale as stalled (DISTKIT_HEARTBEAT_FILE, --stall-timeout).
  std::string heartbeat_file;

  int size() const { return static_cast<int>(endpoints.size()); }
};

// Parses the MLX ring hostfile JSON: [["ip:port", ...], ...] (one list per
// rank; "[v6addr]:port" accepted). Throws Error(config) naming `origin`.
std::vector<std::vector<Endpoint>> parse_ring_hostfile(std::string_view json,
                                                       const std::string& origin);

// Decodes the hex secret file contents (one line, whitespace trimmed).
std::string decode_secret_hex(std::string_view text, const std::string& origin);

// Builds a Config from MLX_RANK, MLX_HOSTFILE, DISTKIT_SECRET_FILE,
// DISTKIT_INSECURE, DISTKIT_TIMEOUT_MS, DISTKIT_CONNECT_TIMEOUT_MS,
// DISTKIT_CHUNK_BYTES, DISTKIT_SMALL_BYTES, DISTKIT_SPIN_US, DISTKIT_HEARTBEAT_FILE.
// Throws Error(config) with a remedy when something is missing or malformed.
Config config_from_environment();

}  // namespace distkit::rt
