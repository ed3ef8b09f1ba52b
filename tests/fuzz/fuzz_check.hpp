// Helpers shared by the fuzz entries: a failed property must stop libFuzzer
// with a crash report (so the input is saved), and the line-oriented probe
// parsers promise that every field they return comes from one input line.
#pragma once

#include <string>
#include <string_view>

namespace distkit::fuzz {

inline void require(bool ok) {
  if (!ok) __builtin_trap();
}

// A field taken from one line of `in`: no newline, not longer than `in`.
inline void require_field(const std::string& field, std::string_view in) {
  require(field.find('\n') == std::string::npos);
  require(field.size() <= in.size());
}

// A parser that yields at most one item per input line.
inline void require_at_most_lines(size_t items, std::string_view in) {
  size_t lines = 1;
  for (char c : in) lines += c == '\n';
  require(items <= lines);
}

}  // namespace distkit::fuzz
