// distconfig: probe hosts, find their Thunderbolt topology, write an MLX
// hostfile. Thin main: the flags, then configtool through the one entry
// point (distkit::tool_main: argv parsing, catch site, exit codes).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "distkit/configtool/cli.hpp"
#include "distkit/configtool/distconfig.hpp"
#include "distkit/ssh/connect.hpp"
#include "distkit/util/terminal.hpp"
#include "distkit/util/tool_main.hpp"

int main(int argc, char** argv) {
  distkit::configtool::Options options;
  return distkit::tool_main(
      "distconfig", distkit::arguments(argc, argv),
      [&](CLI::App& app) { distkit::configtool::configure_cli(app, options); },
      [&] {
        distkit::configtool::Services services{distkit::ssh::connect_all, std::cout, std::cerr,
                                               distkit::use_color(stderr)};
        return distkit::configtool::run_distconfig(options, services);
      });
}
