// See diagnostics.hpp.
#include "diagnostics.hpp"

#include "distkit/util/terminal.hpp"

namespace distkit::configtool {

void warn(Services& s, const std::string& line) {
  s.err << colorize("distconfig: warning: ", Color::yellow, s.color) << line << "\n";
}

void note(Services& s, const std::string& line) {
  s.err << "distconfig: note: " << line << "\n";
}

void problem(Services& s, const std::string& line) {
  s.err << colorize("distconfig: ", Color::red, s.color) << line << "\n";
}

void verbose(const Options& o, Services& s, const std::string& line) {
  if (o.verbose) s.err << colorize("distconfig: " + line, Color::dim, s.color) << "\n";
}

}  // namespace distkit::configtool
