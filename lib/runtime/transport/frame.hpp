// The wire frame every payload travels in. A frame is a fixed 24-byte header
// followed by `length` payload bytes. The receiver always knows what it
// expects next (collectives are deterministic), so a header is checked
// against that expectation before a single payload byte is accepted: a
// hostile or confused peer can never make us allocate or write past a buffer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace distkit::rt {

constexpr uint32_t kFrameMagic = 0x31464b44;  // "DKF1" little-endian
constexpr size_t kFrameHeaderSize = 24;

// What a frame belongs to; checked so mismatched calls fail loudly.
enum class FrameOp : uint8_t {
  all_reduce = 1,
  all_gather,
  reduce_scatter,
  broadcast,
  p2p,
  barrier,
  split,
  abort  // a peer failed: payload = culprit rank (u32 LE) + one-line message
};

constexpr size_t kMaxAbortPayload = 1024;

struct FrameHeader {
  FrameOp op = FrameOp::p2p;
  uint32_t context = 0;  // group identity
  uint32_t seq = 0;      // per connection and direction, from 0
  uint64_t length = 0;   // payload bytes
};

using FrameBytes = std::array<unsigned char, kFrameHeaderSize>;

// n-byte little-endian integers: every field on the wire (frames and the
// connection handshake).
inline void put_le(unsigned char* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
inline uint64_t get_le(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

FrameBytes encode_frame(const FrameHeader& h) noexcept;

// Decodes and checks a header against what the receiver expects. Returns an
// empty string when it matches, else a one-line description of the problem
// ("bad magic 0x...", "expected all_reduce frame, got broadcast", ...).
std::string check_frame(const unsigned char* bytes, size_t n, const FrameHeader& expected);

const char* frame_op_name(FrameOp op) noexcept;

// An abort frame (header + payload) carrying a failure to the peers.
std::string encode_abort(const std::string& message, int culprit);
// If the header is a well-formed abort frame, its payload length; else -1.
long abort_payload_length(const unsigned char* bytes, size_t n);
// Decodes an abort payload: culprit rank (-1 if none) and message.
std::string decode_abort(const unsigned char* payload, size_t n, int& culprit);

}  // namespace distkit::rt
