// See problem.hpp.
#include "distkit/util/problem.hpp"

#include <algorithm>
#include <sstream>

#include "distkit/util/terminal.hpp"

namespace distkit {

std::string describe(const Problem& p) {
  std::string s = p.subject.empty() ? p.problem : p.subject + ": " + p.problem;
  if (!p.remedy.empty()) s += "; " + p.remedy;
  return s;
}

std::string format_line(std::string_view tool, const Problem& p, bool color) {
  return colorize(std::string(tool) + (p.is_error() ? ": error: " : ": warning: "),
                  p.is_error() ? Color::red : Color::yellow, color) +
         describe(p);
}

void print_problems(std::FILE* err, std::string_view tool, const std::vector<Problem>& problems) {
  std::ostringstream lines;
  print_problems(lines, tool, problems);
  std::fputs(lines.str().c_str(), err);
}

void print_problems(std::ostream& err, std::string_view tool, const std::vector<Problem>& problems,
                    bool color) {
  for (bool errors : {false, true})
    for (const auto& p : problems)
      if (p.is_error() == errors) err << format_line(tool, p, color) << "\n";
}

nlohmann::json to_json(const Problem& p) {
  return {{"subject", p.subject},
          {"kind", p.kind},
          {"severity", p.is_error() ? "error" : "warning"},
          {"problem", p.problem},
          {"remedy", p.remedy}};
}

nlohmann::json to_json(const std::vector<Problem>& problems) {
  auto out = nlohmann::json::array();
  for (const auto& p : problems) out.push_back(to_json(p));
  return out;
}

Problem problem_of(const Error& e, std::string kind) {
  return {e.subject(), std::move(kind), e.problem(), e.remedy(), Severity::error, e.exit_code()};
}

size_t count_errors(const std::vector<Problem>& problems, ExitCode code) {
  return static_cast<size_t>(std::count_if(problems.begin(), problems.end(), [&](const auto& p) {
    return p.is_error() && p.code == code;
  }));
}

}  // namespace distkit
