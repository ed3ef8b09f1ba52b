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
  try {
    return distkit::launch::run_distlaunch(options, {});
  } catch (const distkit::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", distkit::format_error_line("distlaunch", e).c_str());
    return int(e.exit_code());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "distlaunch: error: internal: %s\n", e.what());
    return int(distkit::ExitCode::failure);
  }
}
