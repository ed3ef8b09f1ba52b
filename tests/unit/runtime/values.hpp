// Closed-form test values: what rank r contributes at index i, and what each
// reduction of n ranks must give, for every dtype (all exactly
// representable, so results compare exactly).
#pragma once

#include <cstring>
#include <vector>

#include "algorithms/reduce.hpp"
#include "distkit/runtime/types.hpp"

namespace distkit::rt::test {

// Real part contributed by rank r at index i for an op.
inline double contribution(ReduceOp op, int r, size_t i) {
  if (op == ReduceOp::prod) return 1.0 + static_cast<double>((static_cast<size_t>(r) + i) % 2);
  return static_cast<double>((r + 1) * static_cast<int>(i % 7 + 1));
}

inline double expected(ReduceOp op, int n, size_t i) {
  double base = static_cast<double>(i % 7 + 1);
  switch (op) {
    case ReduceOp::sum:
      return base * n * (n + 1) / 2;
    case ReduceOp::max:
      return base * n;
    case ReduceOp::min:
      return base;
    case ReduceOp::prod: {
      double p = 1;
      for (int r = 0; r < n; ++r) p *= contribution(op, r, i);
      return p;
    }
  }
  return 0;
}

inline bool bool_contribution(int r, size_t i) {
  return (static_cast<size_t>(r) + i) % 3 == 0;
}
inline bool bool_expected(ReduceOp op, int n, size_t i) {
  bool any = false, all = true;
  for (int r = 0; r < n; ++r) {
    any = any || bool_contribution(r, i);
    all = all && bool_contribution(r, i);
  }
  return op == ReduceOp::sum || op == ReduceOp::max ? any : all;
}

inline void store(DType t, void* base, size_t i, double v) {
  auto* p = static_cast<unsigned char*>(base) + i * dtype_size(t);
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
    case DType::boolean:
      put(static_cast<uint8_t>(v != 0));
      break;
    // Integers through int64: a value outside the type wraps as the
    // runtime's integer arithmetic does (a double converted straight to a
    // narrower integer it does not fit is undefined; clang's UBSan says so).
    case DType::int8:
      put(static_cast<int8_t>(static_cast<int64_t>(v)));
      break;
    case DType::int16:
      put(static_cast<int16_t>(static_cast<int64_t>(v)));
      break;
    case DType::int32:
      put(static_cast<int32_t>(static_cast<int64_t>(v)));
      break;
    case DType::int64:
      put(static_cast<int64_t>(v));
      break;
    case DType::uint8:
      put(static_cast<uint8_t>(static_cast<int64_t>(v)));
      break;
    case DType::uint16:
      put(static_cast<uint16_t>(static_cast<int64_t>(v)));
      break;
    case DType::uint32:
      put(static_cast<uint32_t>(static_cast<int64_t>(v)));
      break;
    case DType::uint64:
      put(static_cast<uint64_t>(static_cast<int64_t>(v)));
      break;
    case DType::float16:
      put(float_to_half(static_cast<float>(v)));
      break;
    case DType::bfloat16:
      put(float_to_bfloat(static_cast<float>(v)));
      break;
    case DType::float32:
      put(static_cast<float>(v));
      break;
    case DType::float64:
      put(v);
      break;
    case DType::complex64: {
      float c[2] = {static_cast<float>(v), static_cast<float>(v) * 2};
      std::memcpy(p, c, 8);
      break;
    }
  }
}

// Complex values are (v, 2v); sum of (v_r, 2v_r) = (S, 2S). Products are
// checked separately.
inline bool matches(DType t, const void* base, size_t i, double v) {
  std::vector<unsigned char> want(dtype_size(t));
  store(t, want.data(), 0, v);
  return std::memcmp(static_cast<const unsigned char*>(base) + i * dtype_size(t), want.data(),
                     want.size()) == 0;
}

inline const std::vector<DType>& all_dtypes() {
  static const std::vector<DType> v = {
      DType::boolean,  DType::int8,    DType::int16,   DType::int32,    DType::int64,
      DType::uint8,    DType::uint16,  DType::uint32,  DType::uint64,   DType::float16,
      DType::bfloat16, DType::float32, DType::float64, DType::complex64};
  return v;
}

}  // namespace distkit::rt::test
