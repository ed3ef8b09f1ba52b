// One diagnostic: what a check found, as data. Every tool collects its
// checks' findings as Problems (per host, per file, per flag), prints them
// in one format and emits them as they are under --json, so scripts and
// callers read fields, not strings re-matched by a "host: " prefix.
#pragma once

#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "distkit/util/error.hpp"

namespace distkit {

enum class Severity { warning, error };

struct Problem {
  std::string subject;  // what is at fault: a host, a file, a flag ("" for the whole run)
  std::string kind;     // a stable tag for scripts, e.g. "port-busy", "no-agent"
  std::string problem;  // what is wrong, one line
  std::string remedy;   // what to do, one line ("" when there is nothing to say)
  Severity severity = Severity::error;
  // For an error, what it means for the exit status: a configuration the
  // user must fix (usage, 2) or a failure at run time (failure, 1).
  ExitCode code = ExitCode::usage;

  bool is_error() const { return severity == Severity::error; }
};

// "<subject>: <problem>; <remedy>" (parts omitted when empty), the text of
// Error::what() for the same three fields.
std::string describe(const Problem& p);

// The one line a tool prints: "<tool>: error: <describe>" or "<tool>:
// warning: ...", the prefix red (yellow) when `color`.
std::string format_line(std::string_view tool, const Problem& p, bool color = false);

// Each problem's line on `err`, warnings first, in the order found.
void print_problems(std::FILE* err, std::string_view tool, const std::vector<Problem>& problems);
void print_problems(std::ostream& err, std::string_view tool, const std::vector<Problem>& problems,
                    bool color = false);

// {"subject", "kind", "severity": "error"|"warning", "problem", "remedy"}.
nlohmann::json to_json(const Problem& p);
nlohmann::json to_json(const std::vector<Problem>& problems);

// The problem an Error carries (kind as given), for --json reports of a
// run that stopped on one.
Problem problem_of(const Error& e, std::string kind = "error");

// How many of `problems` are errors with exit code `code`.
size_t count_errors(const std::vector<Problem>& problems, ExitCode code);

}  // namespace distkit
