// distconfig: probe hosts, find their Thunderbolt topology, write an MLX
// hostfile. Thin main: parse argv, hand over to configtool through the one
// catch site (distkit::run_tool).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "distkit/configtool/cli.hpp"
#include "distkit/configtool/distconfig.hpp"
#include "distkit/ssh/connect.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/terminal.hpp"

int main(int argc, char** argv) {
  distkit::configtool::Options options;
  CLI::App app{"distconfig"};
  distkit::configtool::configure_cli(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : int(distkit::ExitCode::usage);
  }
  distkit::configtool::Services services{distkit::ssh::connect_all, std::cout, std::cerr,
                                         distkit::use_color(stderr)};
  return distkit::run_tool("distconfig",
                           [&] { return distkit::configtool::run_distconfig(options, services); });
}
