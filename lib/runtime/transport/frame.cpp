// Encoding and validation of frame headers (see frame.hpp). Fuzzed by
// tests/fuzz/runtime_frame_fuzz.cpp.
#include "transport/frame.hpp"

#include <cstdio>

namespace distkit::rt {

namespace {

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

const char* frame_op_name(FrameOp op) noexcept {
  constexpr const char* kNames[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                    "send/recv",  "barrier",    "split",          "abort"};
  size_t i = static_cast<size_t>(op) - 1;  // FrameOp starts at 1
  return i < std::size(kNames) ? kNames[i] : "unknown";
}

FrameBytes encode_frame(const FrameHeader& h) noexcept {
  FrameBytes b{};
  put_le(&b[0], kFrameMagic, 4);
  b[4] = 1;  // version
  b[5] = static_cast<unsigned char>(h.op);
  put_le(&b[6], 0, 2);
  put_le(&b[8], h.context, 4);
  put_le(&b[12], h.seq, 4);
  put_le(&b[16], h.length, 8);
  return b;
}

std::string check_frame(const unsigned char* p, size_t n, const FrameHeader& want) {
  if (n < kFrameHeaderSize) return "short frame header (" + std::to_string(n) + " bytes)";
  if (get_le(p, 4) != kFrameMagic) return "bad frame magic " + hex(get_le(p, 4));
  if (p[4] != 1) return "unsupported frame version " + std::to_string(p[4]);
  if (get_le(p + 6, 2) != 0) return "reserved frame bits set";
  auto op = static_cast<FrameOp>(p[5]);
  if (op != want.op) {
    if (p[5] < 1 || p[5] > 8) return "unknown frame kind " + std::to_string(p[5]);
    return std::string("expected a ") + frame_op_name(want.op) + " frame, got " +
           frame_op_name(op) + " (ranks called different collectives)";
  }
  if (get_le(p + 8, 4) != want.context)
    return "frame for another group (context " + hex(get_le(p + 8, 4)) + ", expected " +
           hex(want.context) + ")";
  if (get_le(p + 12, 4) != want.seq)
    return "frame out of sequence (" + std::to_string(get_le(p + 12, 4)) + ", expected " +
           std::to_string(want.seq) + ")";
  if (get_le(p + 16, 8) != want.length)
    return "frame of " + std::to_string(get_le(p + 16, 8)) + " bytes, expected " +
           std::to_string(want.length) + " (ranks passed different counts or dtypes)";
  return {};
}

std::string encode_abort(const std::string& message, int culprit) {
  std::string text = message.substr(0, kMaxAbortPayload - 4);
  FrameHeader h{FrameOp::abort, 0, 0, text.size() + 4};
  auto hdr = encode_frame(h);
  std::string out(reinterpret_cast<const char*>(hdr.data()), hdr.size());
  unsigned char who[4];
  put_le(who, static_cast<uint32_t>(culprit), 4);
  out.append(reinterpret_cast<const char*>(who), 4);
  return out + text;
}

long abort_payload_length(const unsigned char* p, size_t n) {
  if (n < kFrameHeaderSize || get_le(p, 4) != kFrameMagic || p[4] != 1 ||
      p[5] != static_cast<unsigned char>(FrameOp::abort))
    return -1;
  uint64_t len = get_le(p + 16, 8);
  return len >= 4 && len <= kMaxAbortPayload ? static_cast<long>(len) : -1;
}

std::string decode_abort(const unsigned char* p, size_t n, int& culprit) {
  culprit = -1;
  if (n < 4) return "peer aborted";
  auto who = static_cast<uint32_t>(get_le(p, 4));
  culprit = who > 0x7fffffffu ? -1 : static_cast<int>(who);
  std::string text;
  for (size_t i = 4; i < n; ++i)
    text += (p[i] >= 0x20 && p[i] < 0x7f) ? static_cast<char>(p[i]) : '?';
  return text;
}

}  // namespace distkit::rt
