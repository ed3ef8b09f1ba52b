// distbench: entry point (placeholder until its library lands).
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"distbench"};
  app.set_version_flag("--version", "distbench 0.1.0");
  CLI11_PARSE(app, argc, argv);
  return 0;
}
