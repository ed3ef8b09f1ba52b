// The error types every distkit tool throws, and the exit-status contract.
//
// Inside the libraries, failures are typed exceptions carrying a subject (the
// thing at fault: a file, a host, a flag), the problem, and where possible a
// remedy. Each tool has exactly one catch site in main() that prints them in
// one format, `<tool>: error: <subject>: <problem>; <remedy>`, and exits with
// the code the type maps to.
#pragma once

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace distkit {

// Documented in every man page (EXIT STATUS). Never renumber.
enum class ExitCode : int {
  ok = 0,
  failure = 1,       // runtime failure: a host, a rank, a peer
  usage = 2,         // bad flags, bad hostfile, bad configuration
  interrupted = 130  // SIGINT (128 + 2)
};

// what() is "<subject>: <problem>; <remedy>" (parts omitted when empty).
class Error : public std::runtime_error {
 public:
  Error(std::string subject, std::string problem, std::string remedy = {},
        ExitCode code = ExitCode::failure);

  const std::string& subject() const noexcept { return subject_; }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& remedy() const noexcept { return remedy_; }
  ExitCode exit_code() const noexcept { return code_; }

 private:
  std::string subject_, problem_, remedy_;
  ExitCode code_;
};

// Bad command line or configuration (hostfile, ssh_config): exit 2.
class UsageError : public Error {
 public:
  UsageError(std::string subject, std::string problem, std::string remedy = {})
      : Error(std::move(subject), std::move(problem), std::move(remedy), ExitCode::usage) {}
};

// A remote command or host failed: exit 1.
class RemoteError : public Error {
 public:
  using Error::Error;
};

// The single line printed by a tool's catch site, without trailing newline.
std::string format_error_line(std::string_view tool, const Error& e);

// Every tool's one catch site: runs `body` and returns its exit code; what
// it throws becomes one line on `err` and the exit-code contract
// (distkit::Error: format_error_line and its code; anything else:
// "<tool>: error: internal: <what>", exit 1). Standard output is flushed
// first, so the error line comes after the product.
int run_tool(std::string_view tool, const std::function<int()>& body, std::FILE* err = stderr);

}  // namespace distkit
