// Test helper: the exact one-line text a hostfile call throws, so every
// error message can be asserted verbatim.
#pragma once

#include <string>
#include <string_view>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/error.hpp"

namespace distkit::hostfile::test {

template <typename F>
std::string usage_error_of(F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "<no UsageError>";
}

inline std::string parse_error(std::string_view text) {
  return usage_error_of([&] { parse(text, "hosts.json"); });
}

}  // namespace distkit::hostfile::test
