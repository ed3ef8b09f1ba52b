// distaccept: acceptance runs of a task, one host vs the cluster, compared
// and recorded. Thin main: parse flags, hand over to the accept library,
// one catch site.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "distkit/accept/distaccept.hpp"
#include "distkit/util/error.hpp"

int main(int argc, char** argv) {
  distkit::accept::AcceptOptions options;
  CLI::App app{"distaccept"};
  distkit::accept::configure_cli(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : int(distkit::ExitCode::usage);
  }
  return distkit::run_tool(
      "distaccept", [&] { return distkit::accept::run_distaccept(options, stdout, stderr); });
}
