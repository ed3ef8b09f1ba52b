// See tool_main.hpp.
#include "distkit/util/tool_main.hpp"

#include <CLI/CLI.hpp>
#include <sstream>

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
          std::ostringstream o, x;
          int rc = app.exit(e, o, x);
          write_now(out, o.str());
          write_now(err, x.str());
          return rc == 0 ? 0 : static_cast<int>(ExitCode::usage);
        }
        return body();
      },
      err);
}

std::vector<std::string> arguments(int argc, char** argv) {
  return argc > 1 ? std::vector<std::string>(argv + 1, argv + argc) : std::vector<std::string>{};
}

}  // namespace distkit
