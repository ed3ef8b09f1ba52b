// Conversions between float32 and the 16-bit float types the runtime
// reduces (IEEE binary16 "float16", and bfloat16), round to nearest even,
// NaN and infinity preserved. For filling and reading float16/bfloat16
// buffers without a compiler _Float16.
#pragma once

#include <cstdint>

namespace distkit::rt {

float half_to_float(uint16_t h) noexcept;
uint16_t float_to_half(float f) noexcept;
float bfloat_to_float(uint16_t h) noexcept;
uint16_t float_to_bfloat(float f) noexcept;

}  // namespace distkit::rt
