// The progress engine every algorithm runs on. An algorithm describes its
// communication as a few ordered frame streams (each bound to one connection
// and one direction) and a Plan that says where frame j of a stream lives,
// whether a send may start yet, and what to do when a receive lands (reduce,
// forward). The engine drives all streams at once with non-blocking I/O and
// blocks in poll() when nothing can move — never spins, so oversubscribed
// ranks do not starve each other (SPEC §8) — and turns a peer that closes,
// resets, sends a bad frame or stalls past the timeout into an Error naming
// that peer. Algorithms never touch sockets; an RDMA transport would supply
// its own engine with the same Plan interface.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "transport/frame.hpp"
#include "transport/mesh.hpp"

namespace distkit::rt {

struct Stream {
  Conn* conn = nullptr;
  bool is_send = false;
  uint32_t count = 0;  // frames in this stream
  // engine state
  uint32_t next = 0;
  bool active = false;
  unsigned char* buf = nullptr;
  size_t len = 0;
  size_t hdr_done = 0;
  size_t body_done = 0;
  bool blocked = false;  // last I/O hit EAGAIN: wait for poll() to say ready
  FrameBytes hdr{};
  std::chrono::steady_clock::time_point last_progress{};
};

class Plan {
 public:
  virtual ~Plan() = default;
  // Buffer of frame j of stream s. For a send stream, return false while
  // the frame is not ready yet (its data still has to arrive).
  virtual bool frame(int s, uint32_t j, unsigned char*& buf, size_t& len) = 0;
  // Frame j of receive stream s has fully arrived in its buffer.
  virtual void received(int /*s*/, uint32_t /*j*/) {}
};

// Runs until every stream has moved all its frames. Throws Error (after
// Mesh::fail) on any peer failure. `spin`: how long to poll without
// blocking (yielding between tries) before each blocking wait; for
// latency-bound steps (Config::spin).
void run_streams(Mesh& mesh, Stream* streams, int n, Plan& plan, FrameOp op, uint32_t context,
                 std::chrono::microseconds spin = std::chrono::microseconds(0));

}  // namespace distkit::rt
