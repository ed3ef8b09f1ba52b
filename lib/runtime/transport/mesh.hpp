// The connections of one job: for every peer, one or more striped TCP
// connections, each with its own frame sequence counters per direction. Also
// owns the job-wide failure state: the first failure closes every connection
// (so peers blocked on us fail promptly instead of waiting for their timeout)
// and is repeated by every later call.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "distkit/runtime/config.hpp"
#include "distkit/runtime/types.hpp"

namespace distkit::rt {

struct Conn {
  int fd = -1;
  int peer = -1;  // world rank
  uint32_t send_seq = 0;
  uint32_t recv_seq = 0;
  bool mid_frame = false;  // a send is partway through a frame
};

class Mesh {
 public:
  // Keeps `cfg` for the job's settings (timeouts, chunking, spin, heartbeat
  // file) and hosts, without its secret (only connecting needs that).
  Mesh(const Config& cfg);
  ~Mesh();
  Mesh(const Mesh&) = delete;
  Mesh& operator=(const Mesh&) = delete;

  int size() const { return static_cast<int>(stripes_.size()); }
  const Config& config() const { return cfg_; }

  // Striped connections to world rank `peer` (empty for ourselves).
  std::vector<Conn>& stripes(int peer) { return stripes_[static_cast<size_t>(peer)]; }
  // "rank 2 (10.0.0.2)": how errors name a peer.
  std::string describe(int peer) const;
  std::string host(int peer) const;

  // Throws Error(broken) when an earlier call failed.
  void check_usable() const;
  // Records the first failure, tells every peer it can (an abort frame on
  // each connection not partway through a frame, so they report the real
  // culprit), closes every connection, throws Error(code).
  [[noreturn]] void fail(ErrorCode code, const std::string& message, int peer);

  // Scratch memory reused across calls (grown, never shrunk). Slots 0..63
  // belong to the streams of a plan (stream s stages in slot s; a plan has
  // at most 64); kWorkSlot holds a collective's own working copy.
  static constexpr size_t kWorkSlot = 64;
  unsigned char* staging(size_t slot, size_t bytes);

  // A call completed: touch the heartbeat file if a second has passed
  // since the last touch (best effort: a vanished directory is ignored).
  void beat();

 private:
  std::vector<std::vector<Conn>> stripes_;
  Config cfg_;
  std::string failure_;
  int failed_peer_ = -1;
  std::vector<std::vector<unsigned char>> staging_;
  // Nanoseconds (steady clock) of the last touch; atomic because
  // sub-groups share this mesh.
  std::atomic<long long> last_beat_ns_{0};
};

}  // namespace distkit::rt
