// Reduction kernels (see reduce.hpp).
#include "algorithms/reduce.hpp"

#include <algorithm>
#include <bit>
#include <type_traits>

namespace distkit::rt {

namespace {

inline uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
inline float from_bits(uint32_t u) {
  return std::bit_cast<float>(u);
}

template <typename T, ReduceOp Op>
inline T apply(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;  // wrap-around, never UB
    if constexpr (Op == ReduceOp::sum) return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
    if constexpr (Op == ReduceOp::prod)
      return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    if constexpr (Op == ReduceOp::sum) return a + b;
    if constexpr (Op == ReduceOp::prod) return a * b;
  }
  if constexpr (Op == ReduceOp::max) return a > b ? a : b;
  if constexpr (Op == ReduceOp::min) return a < b ? a : b;
  return a;
}

template <typename T, ReduceOp Op>
void loop(T* __restrict d, const T* __restrict s, size_t n) {
  for (size_t i = 0; i < n; ++i) d[i] = apply<T, Op>(d[i], s[i]);
}

template <typename T>
void typed(void* d, const void* s, size_t n, ReduceOp op) {
  // Indexed by ReduceOp (declaration order in types.hpp).
  constexpr void (*kLoops[])(T*, const T*, size_t) = {
      loop<T, ReduceOp::sum>, loop<T, ReduceOp::prod>, loop<T, ReduceOp::max>,
      loop<T, ReduceOp::min>};
  kLoops[static_cast<size_t>(op)](static_cast<T*>(d), static_cast<const T*>(s), n);
}

void boolean(void* d, const void* s, size_t n, ReduceOp op) {
  auto* dp = static_cast<uint8_t*>(d);
  auto* sp = static_cast<const uint8_t*>(s);
  bool any = op == ReduceOp::sum || op == ReduceOp::max;
  if (any)
    for (size_t i = 0; i < n; ++i) dp[i] = static_cast<uint8_t>((dp[i] | sp[i]) != 0);
  else
    for (size_t i = 0; i < n; ++i) dp[i] = static_cast<uint8_t>(dp[i] != 0 && sp[i] != 0);
}

void complex64(void* d, const void* s, size_t n, ReduceOp op) {
  auto* dp = static_cast<float*>(d);
  auto* sp = static_cast<const float*>(s);
  if (op == ReduceOp::sum) return loop<float, ReduceOp::sum>(dp, sp, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    float a = dp[2 * i], b = dp[2 * i + 1], c = sp[2 * i], e = sp[2 * i + 1];
    dp[2 * i] = a * c - b * e;
    dp[2 * i + 1] = a * e + b * c;
  }
}

// float16/bfloat16: widen a block, reduce in float32, narrow back.
template <float (*Widen)(uint16_t), uint16_t (*Narrow)(float)>
void half_like(void* d, const void* s, size_t n, ReduceOp op) {
  constexpr size_t kBlock = 512;
  float a[kBlock], b[kBlock];
  auto* dp = static_cast<uint16_t*>(d);
  auto* sp = static_cast<const uint16_t*>(s);
  for (size_t base = 0; base < n; base += kBlock) {
    size_t m = std::min(kBlock, n - base);
    for (size_t i = 0; i < m; ++i) a[i] = Widen(dp[base + i]);
    for (size_t i = 0; i < m; ++i) b[i] = Widen(sp[base + i]);
    typed<float>(a, b, m, op);
    for (size_t i = 0; i < m; ++i) dp[base + i] = Narrow(a[i]);
  }
}

}  // namespace

float half_to_float(uint16_t h) noexcept {
  uint32_t o = static_cast<uint32_t>(h & 0x7fff) << 13;
  uint32_t exp = o & (0x7c00u << 13);
  o += (127 - 15) << 23;
  uint32_t inf_nan = o + ((128 - 16) << 23);
  float sub = from_bits(o + (1 << 23)) - from_bits(113u << 23);
  o = exp == (0x7c00u << 13) ? inf_nan : exp == 0 ? bits(sub) : o;
  return from_bits(o | (static_cast<uint32_t>(h & 0x8000) << 16));
}

uint16_t float_to_half(float f) noexcept {
  uint32_t u = bits(f);
  uint32_t sign = u & 0x80000000u;
  u ^= sign;
  uint32_t o;
  if (u >= (127u + 16) << 23) {
    o = u > (255u << 23) ? 0x7e00 : 0x7c00;
  } else if (u < (113u << 23)) {
    const float magic = from_bits(((127 - 15) + (23 - 10) + 1) << 23);
    o = bits(from_bits(u) + magic) - bits(magic);
  } else {
    uint32_t odd = (u >> 13) & 1;
    u += ((15u - 127u) << 23) + 0xfff + odd;
    o = u >> 13;
  }
  return static_cast<uint16_t>(o | (sign >> 16));
}

float bfloat_to_float(uint16_t h) noexcept {
  return from_bits(static_cast<uint32_t>(h) << 16);
}

uint16_t float_to_bfloat(float f) noexcept {
  uint32_t u = bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return static_cast<uint16_t>(u >> 16);
}

void check_reducible(DType t, ReduceOp op) {
  if (t == DType::complex64 && (op == ReduceOp::max || op == ReduceOp::min))
    throw Error(ErrorCode::invalid_argument, std::string("reduce op ") + reduce_op_name(op) +
                                                 ": not defined for complex64; use sum or prod");
}

void reduce_into(void* d, const void* s, size_t n, DType t, ReduceOp op) noexcept {
  // Indexed by DType (declaration order in types.hpp).
  constexpr void (*kKernels[])(void*, const void*, size_t, ReduceOp) = {
      boolean,
      typed<int8_t>,
      typed<int16_t>,
      typed<int32_t>,
      typed<int64_t>,
      typed<uint8_t>,
      typed<uint16_t>,
      typed<uint32_t>,
      typed<uint64_t>,
      half_like<half_to_float, float_to_half>,
      half_like<bfloat_to_float, float_to_bfloat>,
      typed<float>,
      typed<double>,
      complex64};
  static_assert(std::size(kKernels) == static_cast<size_t>(DType::complex64) + 1);
  kKernels[static_cast<size_t>(t)](d, s, n, op);
}

}  // namespace distkit::rt
