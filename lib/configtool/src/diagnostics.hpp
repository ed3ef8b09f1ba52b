// How distconfig talks on stderr: its problems in the one format
// (distkit/util/problem.hpp), kept for the --json reports, and
// "distconfig: note: ..." lines, coloured only when allowed; and the one
// way its reports print a table on stdout.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::configtool {

// Prints `problems` (print_problems) and adds them to s.problems.
void report(Services& s, const std::vector<Problem>& problems);
void note(Services& s, const std::string& line);
void verbose(const Options& o, Services& s, const std::string& line);

// `rows` (the header first) in columns: each cell but a row's last padded
// to its column's widest cell plus two spaces.
void print_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows);

}  // namespace distkit::configtool
