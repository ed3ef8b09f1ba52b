// Element types, reduction operators and the one error type of the collective
// runtime. This header is installed and included by user programs: it depends
// on nothing but the C++ standard library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace distkit::rt {

// Element types a collective can carry. float16/bfloat16 are raw 16-bit
// patterns (IEEE binary16 / bfloat16); complex64 is two float32 (re, im).
enum class DType : uint8_t {
  boolean,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  complex64
};

// Reductions. For bool, sum/max mean OR and prod/min mean AND. complex64
// supports sum and prod only.
enum class ReduceOp : uint8_t { sum, prod, max, min };

// Size in bytes of one element.
size_t dtype_size(DType t) noexcept;
// "float32", "bfloat16", ... (nccl-tests spelling where one exists).
const char* dtype_name(DType t) noexcept;
const char* reduce_op_name(ReduceOp op) noexcept;
// Parses the names above; returns false when unknown.
bool parse_dtype(const std::string& name, DType& out) noexcept;
bool parse_reduce_op(const std::string& name, ReduceOp& out) noexcept;

// Error categories; the C API returns them as its status codes.
enum class ErrorCode : int {
  ok = 0,
  invalid_argument = 1,  // bad rank, count, dtype/op pair, buffer size
  config = 2,            // missing/bad environment, hostfile, secret
  peer = 3,              // a peer died, reset, stalled or sent garbage
  auth = 4,              // a peer failed authentication
  timeout = 5,           // connection setup did not finish in time
  broken = 6,            // the group failed earlier; it cannot be used again
  system = 7             // a local system call failed
};

// Every failure of the runtime. what() is one line:
// "<subject>: <problem>; <remedy>" (remedy omitted when there is none).
// peer() is the rank at fault, or -1.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message, int peer = -1)
      : std::runtime_error(message), code_(code), peer_(peer) {}
  ErrorCode code() const noexcept { return code_; }
  int peer() const noexcept { return peer_; }

 private:
  ErrorCode code_;
  int peer_;
};

}  // namespace distkit::rt
