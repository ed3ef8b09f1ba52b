// Decimal integers from text (pids, /proc fields, frame values) with no
// silent 0: std::from_chars over the whole string, no locale, no sign
// but '-'. Header-only and libc-free, so the host agent uses it too.
#pragma once

#include <charconv>
#include <cstddef>
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

// `text` when it is 1 to `max_digits` (at most 18) decimal digits, no sign
// and no blank: the numbers of our protocols and the counts users give.
inline std::optional<long> parse_digits(std::string_view text, std::size_t max_digits) {
  if (text.size() > max_digits || text.find_first_not_of("0123456789") != text.npos)
    return std::nullopt;
  return parse_decimal<long>(text);
}

}  // namespace distkit
