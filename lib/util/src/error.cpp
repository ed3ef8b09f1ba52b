// Error construction and the one user-facing error format.
#include "distkit/util/error.hpp"

#include "distkit/util/problem.hpp"

#include <fmt/format.h>

#include <iostream>

namespace distkit {

Error::Error(std::string subject, std::string problem, std::string remedy, ExitCode code)
    : std::runtime_error(describe(Problem{subject, "", problem, remedy})),
      subject_(std::move(subject)),
      problem_(std::move(problem)),
      remedy_(std::move(remedy)),
      code_(code) {}

std::string format_error_line(std::string_view tool, const Error& e) {
  return fmt::format("{}: error: {}", tool, e.what());
}

int run_tool(std::string_view tool, const std::function<int()>& body, std::FILE* err) {
  std::string line;
  int code = 0;
  try {
    return body();
  } catch (const Error& e) {
    line = format_error_line(tool, e);
    code = static_cast<int>(e.exit_code());
  } catch (const std::exception& e) {
    line = fmt::format("{}: error: internal: {}", tool, e.what());
    code = static_cast<int>(ExitCode::failure);
  }
  std::cout.flush();
  std::fflush(stdout);
  std::fprintf(err, "%s\n", line.c_str());
  return code;
}

}  // namespace distkit
