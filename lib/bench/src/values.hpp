// Closed-form inputs and expected outputs for distbench's #wrong column:
// small integers every dtype represents exactly, so results compare exactly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "distkit/runtime/types.hpp"

namespace distkit::bench {

// Rank r's element i for a reduction with `op` (real part for complex64).
int64_t reduce_input(rt::ReduceOp op, int r, size_t i);
bool bool_input(int r, size_t i);
// The op over ranks 0..n-1 of reduce_input (integers wrap like the dtype).
int64_t reduce_expected(rt::ReduceOp op, int n, size_t i);
bool bool_expected(rt::ReduceOp op, int n, size_t i);
// Non-reducing collectives: what rank r contributes at index i.
int64_t pattern(int r, size_t i);

// Writes value v (as the dtype; complex64 = (v, 2v)) at element i.
void store(rt::DType t, void* base, size_t i, int64_t v);
// Does element i equal v as stored by store()?
bool equals(rt::DType t, const void* base, size_t i, int64_t v);

}  // namespace distkit::bench
