// How distconfig talks on stderr: "distconfig: warning: ..." and
// "distconfig: note: ..." lines, coloured only when allowed.
#pragma once

#include <string>

#include "distkit/configtool/distconfig.hpp"

namespace distkit::configtool {

void warn(Services& s, const std::string& line);
void note(Services& s, const std::string& line);
void problem(Services& s, const std::string& line);  // "distconfig: <line>" in red
void verbose(const Options& o, Services& s, const std::string& line);

}  // namespace distkit::configtool
