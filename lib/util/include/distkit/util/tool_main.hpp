// Every tool's main(), once: argv parsing with CLI11, the one catch site
// (run_tool) and the exit-code contract, so the tools and the tests that
// drive a tool in-process go through the same code.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace distkit {

// Builds the tool's CLI11 app with `configure` (its flags, bound to the
// tool's options), parses `args` (argv without the program name) into it,
// then runs `body` for the exit status, all inside the one catch site
// (run_tool): nothing a tool does from its first flag on escapes it.
// --help and --version print on `out` and give 0; a flag CLI11 refuses
// is one line on `err`, "<tool>: error: <CLI11's message>; see <tool>
// --help", and gives 2 (ExitCode::usage), without running `body`.
int tool_main(std::string_view tool, std::vector<std::string> args,
              const std::function<void(CLI::App&)>& configure, const std::function<int()>& body,
              std::FILE* out = stdout, std::FILE* err = stderr);

// The check of every integer flag of the tools, run on its text before
// CLI11 converts it (CLI11's own words were "Could not convert: -p = 1e9"
// or "Value 1e9 not in range 0 to 2147483647"): a whole number from
// `least` to `most`, else '"1e9" is not a whole number; give one from 1 to
// 65535' or '70000 is out of range; give a whole number from 1 to 65535'.
// --help shows INT, and the range where it is narrower than an int's.
CLI::Validator whole_number(int least, int most);

// argv[1..argc) as strings, for tool_main.
std::vector<std::string> arguments(int argc, char** argv);

}  // namespace distkit
