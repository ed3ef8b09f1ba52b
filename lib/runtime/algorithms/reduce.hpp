// Element-wise reduction kernels: dst[i] = dst[i] (op) src[i]. Plain loops
// over restrict pointers that GCC and clang auto-vectorise; float16 and
// bfloat16 go through float32 in blocks with branch-free conversions (round
// to nearest even), so they vectorise too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "distkit/runtime/half.hpp"
#include "distkit/runtime/types.hpp"

namespace distkit::rt {

// Throws Error(invalid_argument) for pairs without a meaning (complex64
// max/min).
void check_reducible(DType t, ReduceOp op);

void reduce_into(void* dst, const void* src, size_t count, DType t, ReduceOp op) noexcept;

}  // namespace distkit::rt
