// How distconfig talks on stderr: its problems in the one format
// (distkit/util/problem.hpp), kept for the --json reports, and
// "distconfig: note: ..." lines, coloured only when allowed.
#pragma once

#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::configtool {

// Prints `problems` (print_problems) and adds them to s.problems.
void report(Services& s, const std::vector<Problem>& problems);
void note(Services& s, const std::string& line);
void verbose(const Options& o, Services& s, const std::string& line);

}  // namespace distkit::configtool
