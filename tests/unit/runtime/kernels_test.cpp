// Reduction kernels and 16-bit float conversions, checked against known bit
// patterns.
#include <cmath>
#include <cstring>
#include <limits>

#include "algorithms/reduce.hpp"
#include "catch.hpp"

using namespace distkit::rt;

TEST_CASE("float16 conversion round-trips known bit patterns", "[runtime]") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(1e6f) == 0x7c00);
  CHECK(float_to_half(5.960464477539063e-08f) == 0x0001);  // smallest subnormal
  CHECK(float_to_half(std::numeric_limits<float>::quiet_NaN()) == 0x7e00);
  CHECK(float_to_half(1.0f + 1.0f / 2048) == 0x3c00);  // tie rounds to even
  CHECK(float_to_half(1.0f + 3.0f / 2048) == 0x3c02);
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0x0001) == 5.960464477539063e-08f);
  CHECK(std::isinf(half_to_float(0x7c00)));
  CHECK(std::isnan(half_to_float(0x7e00)));
  for (uint32_t h = 0; h < 0x7c00; ++h)  // every finite positive half survives
    REQUIRE(float_to_half(half_to_float(static_cast<uint16_t>(h))) == h);
}

TEST_CASE("bfloat16 conversion rounds to nearest even", "[runtime]") {
  CHECK(float_to_bfloat(1.0f) == 0x3f80);
  CHECK(bfloat_to_float(0x3f80) == 1.0f);
  CHECK(float_to_bfloat(1.0f + 1.0f / 256) == 0x3f80);  // tie -> even
  CHECK(float_to_bfloat(1.0f + 3.0f / 256) == 0x3f82);
  CHECK(std::isnan(bfloat_to_float(float_to_bfloat(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("reductions of 16-bit floats widen, reduce and narrow", "[runtime]") {
  uint16_t a[3] = {float_to_half(1.5f), float_to_half(-2), float_to_half(8)};
  uint16_t b[3] = {float_to_half(2.5f), float_to_half(3), float_to_half(0.5f)};
  reduce_into(a, b, 3, DType::float16, ReduceOp::prod);
  CHECK(half_to_float(a[0]) == 3.75f);
  CHECK(half_to_float(a[1]) == -6.0f);
  CHECK(half_to_float(a[2]) == 4.0f);
}

TEST_CASE("complex64 product multiplies complex numbers", "[runtime]") {
  float a[2] = {1, 2}, b[2] = {3, -1};
  reduce_into(a, b, 1, DType::complex64, ReduceOp::prod);
  CHECK(a[0] == 5.0f);  // (1+2i)(3-i) = 3 - i + 6i + 2 = 5 + 5i
  CHECK(a[1] == 5.0f);
}

TEST_CASE("complex64 max is refused with a remedy", "[runtime]") {
  try {
    check_reducible(DType::complex64, ReduceOp::max);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "reduce op max: not defined for complex64; use sum or prod");
    CHECK(e.code() == ErrorCode::invalid_argument);
  }
}

TEST_CASE("signed integer sums wrap instead of overflowing", "[runtime]") {
  int8_t a[1] = {127}, b[1] = {1};
  reduce_into(a, b, 1, DType::int8, ReduceOp::sum);
  CHECK(a[0] == -128);
}

TEST_CASE("bool sum is OR and prod is AND", "[runtime]") {
  uint8_t a[4] = {0, 1, 0, 1}, b[4] = {0, 0, 1, 1};
  uint8_t c[4];
  std::memcpy(c, a, 4);
  reduce_into(a, b, 4, DType::boolean, ReduceOp::sum);
  reduce_into(c, b, 4, DType::boolean, ReduceOp::prod);
  CHECK((a[0] == 0 && a[1] == 1 && a[2] == 1 && a[3] == 1));
  CHECK((c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 1));
}
