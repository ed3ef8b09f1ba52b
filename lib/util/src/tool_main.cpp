// See tool_main.hpp.
#include "distkit/util/tool_main.hpp"

#include <CLI/CLI.hpp>
#include <limits>
#include <sstream>

#include "distkit/util/decimal.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/terminal.hpp"

namespace distkit {

int tool_main(std::string_view tool, std::vector<std::string> args,
              const std::function<void(CLI::App&)>& configure, const std::function<int()>& body,
              std::FILE* out, std::FILE* err) {
  return run_tool(
      tool,
      [&] {
        CLI::App app{"", std::string(tool)};  // "Usage: <tool> [OPTIONS]"
        configure(app);
        try {
          std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11's order
          app.parse(reversed);
        } catch (const CLI::ParseError& e) {
          // --help and --version: CLI11 prints them, and they succeed.
          if (e.get_exit_code() == 0) {
            std::ostringstream o, x;
            app.exit(e, o, x);
            write_now(out, o.str());
            write_now(err, x.str());
            return 0;
          }
          // A refused flag is one line in the tools' one format, not
          // CLI11's two ("... / Run with --help for more information.").
          throw UsageError("", e.what(), "see " + std::string(tool) + " --help");
        }
        return body();
      },
      err);
}

CLI::Validator whole_number(int least, int most) {
  const std::string range = std::to_string(least) + " to " + std::to_string(most);
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        auto v = parse_decimal<long long>(text);
        if (!v) return "\"" + text + "\" is not a whole number; give one from " + range;
        if (*v < least || *v > most)
          return text + " is out of range; give a whole number from " + range;
        return "";
      },
      most < std::numeric_limits<int>::max()
          ? "INT in [" + std::to_string(least) + " - " + std::to_string(most) + "]"
          : "");
}

std::vector<std::string> arguments(int argc, char** argv) {
  return argc > 1 ? std::vector<std::string>(argv + 1, argv + argc) : std::vector<std::string>{};
}

}  // namespace distkit
