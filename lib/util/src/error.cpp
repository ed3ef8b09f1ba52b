// Error construction and the one user-facing error format.
#include "distkit/util/error.hpp"

#include <fmt/format.h>

namespace distkit {

namespace {
std::string compose(const std::string& subject, const std::string& problem,
                    const std::string& remedy) {
  std::string s = subject.empty() ? problem : subject + ": " + problem;
  if (!remedy.empty()) s += "; " + remedy;
  return s;
}
}  // namespace

Error::Error(std::string subject, std::string problem, std::string remedy, ExitCode code)
    : std::runtime_error(compose(subject, problem, remedy)),
      subject_(std::move(subject)),
      problem_(std::move(problem)),
      remedy_(std::move(remedy)),
      code_(code) {}

std::string describe(const Error& e) {
  return e.what();
}

std::string format_error_line(std::string_view tool, const Error& e) {
  return fmt::format("{}: error: {}", tool, e.what());
}

}  // namespace distkit
