// See diagnostics.hpp.
#include "diagnostics.hpp"

#include "distkit/util/terminal.hpp"

namespace distkit::configtool {

void report(Services& s, const std::vector<Problem>& problems) {
  print_problems(s.err, "distconfig", problems, s.color);
  s.problems.insert(s.problems.end(), problems.begin(), problems.end());
}

void note(Services& s, const std::string& line) {
  s.err << "distconfig: note: " << line << "\n";
}

void verbose(const Options& o, Services& s, const std::string& line) {
  if (o.verbose) s.err << colorize("distconfig: " + line, Color::dim, s.color) << "\n";
}

}  // namespace distkit::configtool
