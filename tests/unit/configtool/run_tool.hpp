// Runs distconfig in-process the way apps/distconfig.cpp does (through
// distkit::tool_main), capturing stdout, stderr and the exit status.
#pragma once

#include <unistd.h>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "distkit/configtool/cli.hpp"
#include "distkit/configtool/distconfig.hpp"
#include "distkit/ssh/local_executor.hpp"
#include "distkit/util/tool_main.hpp"

namespace distkit::test {

struct ToolRun {
  int status = -1;
  std::string out, err;
};

// Every host gets a LocalExecutor, except those listed in `unreachable`.
inline configtool::ConnectFn local_connect(std::vector<std::string> unreachable = {}) {
  return [unreachable](const std::vector<std::string>& hosts, const ssh::ConnectOptions&) {
    ssh::Connections c;
    for (const auto& h : hosts) {
      bool down = std::find(unreachable.begin(), unreachable.end(), h) != unreachable.end();
      if (down) {
        c.executors.push_back(nullptr);
        c.errors.push_back({h, "unreachable", h + ": connection refused; is sshd running?"});
      } else {
        c.executors.push_back(std::make_shared<ssh::LocalExecutor>(h));
      }
    }
    return c;
  };
}

// Through the tools' one entry point (distkit::tool_main), as main() does.
inline ToolRun run_tool(std::vector<std::string> args,
                        configtool::ConnectFn connect = local_connect()) {
  configtool::Options options;
  std::ostringstream out, err;
  configtool::Services s{connect, out, err, false};
  // tool_main's own lines (CLI11's, the error line) go to C streams.
  char *said_out = nullptr, *said_err = nullptr;
  size_t out_size = 0, err_size = 0;
  std::FILE* fout = open_memstream(&said_out, &out_size);
  std::FILE* ferr = open_memstream(&said_err, &err_size);
  ToolRun r;
  r.status = tool_main(
      "distconfig", args, [&](CLI::App& app) { configtool::configure_cli(app, options); },
      [&] { return configtool::run_distconfig(options, s); }, fout, ferr);
  std::fclose(fout);
  std::fclose(ferr);
  r.out = out.str() + std::string(said_out, out_size);
  r.err = err.str() + std::string(said_err, err_size);
  std::free(said_out);
  std::free(said_err);
  return r;
}

// A fresh, empty scratch directory for one test (removed by the test).
inline std::filesystem::path temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() /
           ("distconfig-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace distkit::test
