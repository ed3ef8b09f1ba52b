// See diagnostics.hpp.
#include "diagnostics.hpp"

#include <algorithm>

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

void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> w(rows.front().size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
  for (const auto& r : rows) {
    for (size_t i = 0; i + 1 < r.size(); ++i)
      out << r[i] << std::string(w[i] - r[i].size() + 2, ' ');
    out << r.back() << "\n";
  }
}

}  // namespace distkit::configtool
