// distconfig's command line (CLI11): the flags of mlx.distributed_config
// plus distkit's own. Kept in the library so tests parse real argv.
#pragma once

#include <CLI/CLI.hpp>

#include "distkit/configtool/distconfig.hpp"

namespace distkit::configtool {

// Registers every flag on `app`, writing into `options`.
void configure_cli(CLI::App& app, Options& options);

}  // namespace distkit::configtool
