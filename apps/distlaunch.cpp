// distlaunch: start, supervise and clean up a distributed job. Thin main:
// split off the command, parse flags, hand over to the launch library, one
// catch site.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "distkit/launch/distlaunch.hpp"
#include "distkit/util/error.hpp"

int main(int argc, char** argv) {
  distkit::launch::LaunchOptions options;
  std::vector<std::string> args = distkit::launch::split_command(argc, argv, options);
  CLI::App app{"distlaunch"};
  distkit::launch::configure_cli(app, options);
  app.prefix_command();  // mlx.launch style: `distlaunch -n 2 job.py --flag`
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : int(distkit::ExitCode::usage);
  }
  if (options.command.empty()) options.command = app.remaining();
  return distkit::run_tool("distlaunch",
                           [&] { return distkit::launch::run_distlaunch(options, {}).exit_code; });
}
