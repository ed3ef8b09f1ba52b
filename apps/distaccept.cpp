// distaccept: acceptance runs of a task, one host vs the cluster, compared
// and recorded. Thin main: the flags, then the accept library through the
// one entry point (distkit::tool_main).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "distkit/accept/distaccept.hpp"
#include "distkit/util/tool_main.hpp"

int main(int argc, char** argv) {
  distkit::accept::AcceptOptions options;
  return distkit::tool_main(
      "distaccept", distkit::arguments(argc, argv),
      [&](CLI::App& app) { distkit::accept::configure_cli(app, options); },
      [&] { return distkit::accept::run_distaccept(options, stdout, stderr); });
}
