// Encoding and validation of frame headers (see frame.hpp). Fuzzed by
// tests/fuzz/runtime_frame_fuzz.cpp.
#include "transport/frame.hpp"

#include <cstdio>

namespace distkit::rt {

namespace {

void put(unsigned char* p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

uint64_t get(const unsigned char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

const char* frame_op_name(FrameOp op) noexcept {
  switch (op) {
    case FrameOp::all_reduce: return "all_reduce";
    case FrameOp::all_gather: return "all_gather";
    case FrameOp::reduce_scatter: return "reduce_scatter";
    case FrameOp::broadcast: return "broadcast";
    case FrameOp::p2p: return "send/recv";
    case FrameOp::barrier: return "barrier";
    case FrameOp::split: return "split";
  }
  return "unknown";
}

FrameBytes encode_frame(const FrameHeader& h) noexcept {
  FrameBytes b{};
  put(&b[0], kFrameMagic, 4);
  b[4] = 1;  // version
  b[5] = static_cast<unsigned char>(h.op);
  put(&b[6], 0, 2);
  put(&b[8], h.context, 4);
  put(&b[12], h.seq, 4);
  put(&b[16], h.length, 8);
  return b;
}

std::string check_frame(const unsigned char* p, size_t n, const FrameHeader& want) {
  if (n < kFrameHeaderSize) return "short frame header (" + std::to_string(n) + " bytes)";
  if (get(p, 4) != kFrameMagic) return "bad frame magic " + hex(get(p, 4));
  if (p[4] != 1) return "unsupported frame version " + std::to_string(p[4]);
  if (get(p + 6, 2) != 0) return "reserved frame bits set";
  auto op = static_cast<FrameOp>(p[5]);
  if (op != want.op) {
    if (p[5] < 1 || p[5] > 7) return "unknown frame kind " + std::to_string(p[5]);
    return std::string("expected a ") + frame_op_name(want.op) + " frame, got " +
           frame_op_name(op) + " (ranks called different collectives)";
  }
  if (get(p + 8, 4) != want.context)
    return "frame for another group (context " + hex(get(p + 8, 4)) + ", expected " +
           hex(want.context) + ")";
  if (get(p + 12, 4) != want.seq)
    return "frame out of sequence (" + std::to_string(get(p + 12, 4)) + ", expected " +
           std::to_string(want.seq) + ")";
  if (get(p + 16, 8) != want.length)
    return "frame of " + std::to_string(get(p + 16, 8)) + " bytes, expected " +
           std::to_string(want.length) + " (ranks passed different counts or dtypes)";
  return {};
}

}  // namespace distkit::rt
