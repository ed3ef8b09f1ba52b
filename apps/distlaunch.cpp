// distlaunch: start, supervise and clean up a distributed job. Thin main:
// split off the command, then the launch library through the one entry
// point (distkit::tool_main: argv parsing, catch site, exit codes).
#include <CLI/CLI.hpp>

#include "distkit/launch/distlaunch.hpp"
#include "distkit/util/tool_main.hpp"

int main(int argc, char** argv) {
  distkit::launch::LaunchOptions options;
  std::vector<std::string> args = distkit::launch::split_command(argc, argv, options);
  CLI::App* parsed = nullptr;
  return distkit::tool_main(
      "distlaunch", args,
      [&](CLI::App& app) {
        distkit::launch::configure_cli(app, options);
        app.prefix_command();  // mlx.launch style: `distlaunch -n 2 job.py --flag`
        parsed = &app;
      },
      [&] {
        if (options.command.empty()) options.command = parsed->remaining();
        return distkit::launch::run_distlaunch(options, {}).exit_code;
      });
}
