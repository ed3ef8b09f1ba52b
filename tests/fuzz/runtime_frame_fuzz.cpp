// Fuzzes what a hostile peer controls: frame headers (checked against an
// expectation also taken from the input) and, from the same bytes, the ring
// hostfile and secret parsers. Anything must give a verdict or a typed
// Error, never a crash, a hang or an allocation beyond the input size.
#include <cstddef>
#include <cstdint>
#include <string>

#include "distkit/runtime/config.hpp"
#include "transport/frame.hpp"

using namespace distkit::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FrameHeader want;
  if (size >= kFrameHeaderSize + 9) {
    want.op = static_cast<FrameOp>(1 + data[kFrameHeaderSize] % 7);
    want.seq = data[kFrameHeaderSize + 1];
    want.length = data[kFrameHeaderSize + 2] | (uint64_t{data[kFrameHeaderSize + 3]} << 8);
    want.context = 0x00d15c01;
  }
  std::string verdict = check_frame(data, size, want);
  if (size >= kFrameHeaderSize && verdict.empty()) {
    // A header that passed must be exactly what we would have sent.
    auto again = encode_frame(want);
    for (size_t i = 0; i < kFrameHeaderSize; ++i)
      if (again[i] != data[i]) __builtin_trap();
  }
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    auto eps = parse_ring_hostfile(text, "fuzz");
    for (const auto& rank : eps)
      if (rank.empty()) __builtin_trap();
  } catch (const Error&) {
  }
  try {
    decode_secret_hex(text, "fuzz");
  } catch (const Error&) {
  }
  return 0;
}
