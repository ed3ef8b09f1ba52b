// The one way the hostfile library reports a problem: a UsageError (exit 2)
// whose subject is "<source>: <JSON path>", e.g. "hosts.json: hosts[2].ips[0]".
#pragma once

#include <string>
#include <string_view>

#include "distkit/util/error.hpp"

namespace distkit::hostfile::detail {

[[noreturn]] inline void fail(std::string_view source, std::string_view path, std::string problem,
                              std::string remedy) {
  std::string subject(source);
  if (!path.empty()) subject += subject.empty() ? std::string(path) : ": " + std::string(path);
  throw UsageError(std::move(subject), std::move(problem), std::move(remedy));
}

// At least one host, at most kMaxHosts (validate.cpp).
void check_host_count(size_t n, std::string_view src);

inline std::string host_path(size_t i) {
  return "hosts[" + std::to_string(i) + "]";
}

}  // namespace distkit::hostfile::detail
