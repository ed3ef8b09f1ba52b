// Closed-form values (see values.hpp).
#include "values.hpp"

#include <cstring>

#include "distkit/runtime/half.hpp"

namespace distkit::bench {

int64_t reduce_input(rt::ReduceOp op, int r, size_t i) {
  if (op == rt::ReduceOp::prod) return 1 + static_cast<int64_t>((static_cast<size_t>(r) + i) % 2);
  return (r + 1) * static_cast<int64_t>(i % 3 + 1);
}

bool bool_input(int r, size_t i) {
  return (static_cast<size_t>(r) + i) % 3 == 0;
}

int64_t reduce_expected(rt::ReduceOp op, int n, size_t i) {
  int64_t base = static_cast<int64_t>(i % 3 + 1);
  switch (op) {
    case rt::ReduceOp::sum:
      return base * n * (n + 1) / 2;
    case rt::ReduceOp::max:
      return base * n;
    case rt::ReduceOp::min:
      return base;
    case rt::ReduceOp::prod: {
      int64_t p = 1;
      for (int r = 0; r < n; ++r) p *= reduce_input(op, r, i);
      return p;
    }
  }
  return 0;
}

bool bool_expected(rt::ReduceOp op, int n, size_t i) {
  bool any = false, all = true;
  for (int r = 0; r < n; ++r) {
    any = any || bool_input(r, i);
    all = all && bool_input(r, i);
  }
  return op == rt::ReduceOp::sum || op == rt::ReduceOp::max ? any : all;
}

int64_t pattern(int r, size_t i) {
  return static_cast<int64_t>((static_cast<size_t>(r) * 131 + i) % 97);
}

void store(rt::DType t, void* base, size_t i, int64_t v) {
  auto* p = static_cast<unsigned char*>(base) + i * rt::dtype_size(t);
  auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
  switch (t) {
    case rt::DType::boolean:
      return put(static_cast<uint8_t>(v != 0));
    case rt::DType::int8:
      return put(static_cast<int8_t>(v));
    case rt::DType::int16:
      return put(static_cast<int16_t>(v));
    case rt::DType::int32:
      return put(static_cast<int32_t>(v));
    case rt::DType::int64:
      return put(v);
    case rt::DType::uint8:
      return put(static_cast<uint8_t>(v));
    case rt::DType::uint16:
      return put(static_cast<uint16_t>(v));
    case rt::DType::uint32:
      return put(static_cast<uint32_t>(v));
    case rt::DType::uint64:
      return put(static_cast<uint64_t>(v));
    case rt::DType::float16:
      return put(rt::float_to_half(static_cast<float>(v)));
    case rt::DType::bfloat16:
      return put(rt::float_to_bfloat(static_cast<float>(v)));
    case rt::DType::float32:
      return put(static_cast<float>(v));
    case rt::DType::float64:
      return put(static_cast<double>(v));
    case rt::DType::complex64: {
      float c[2] = {static_cast<float>(v), 2 * static_cast<float>(v)};
      std::memcpy(p, c, 8);
    }
  }
}

bool equals(rt::DType t, const void* base, size_t i, int64_t v) {
  unsigned char want[8];
  store(t, want, 0, v);
  size_t e = rt::dtype_size(t);
  return std::memcmp(static_cast<const unsigned char*>(base) + i * e, want, e) == 0;
}

}  // namespace distkit::bench
