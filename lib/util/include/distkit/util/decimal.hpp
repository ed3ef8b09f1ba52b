// Decimal integers from text (pids, /proc fields, frame values) with no
// silent 0: std::from_chars over the whole string, no locale, no sign
// but '-'. Header-only and libc-free, so the host agent uses it too.
#pragma once

#include <charconv>
#include <optional>
#include <string_view>

namespace distkit {

// `text` as a T when it is exactly one decimal number that fits; else nothing.
template <typename T>
std::optional<T> parse_decimal(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || stop != end || text.empty()) return std::nullopt;
  return value;
}

}  // namespace distkit
