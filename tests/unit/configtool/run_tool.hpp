// Runs distconfig in-process the way apps/distconfig.cpp does (CLI11 parse,
// one catch site), capturing stdout, stderr and the exit status.
#pragma once

#include <unistd.h>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "distkit/configtool/cli.hpp"
#include "distkit/configtool/distconfig.hpp"
#include "distkit/ssh/local_executor.hpp"
#include "distkit/util/error.hpp"

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

inline ToolRun run_tool(std::vector<std::string> args,
                        configtool::ConnectFn connect = local_connect()) {
  args.insert(args.begin(), "distconfig");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  configtool::Options options;
  CLI::App app{"distconfig"};
  configtool::configure_cli(app, options);
  ToolRun r;
  std::ostringstream out, err;
  try {
    app.parse(int(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    r.status = e.get_exit_code() == 0 ? 0 : 2;
    r.err = e.what();
    return r;
  }
  configtool::Services s{connect, out, err, false};
  try {
    r.status = configtool::run_distconfig(options, s);
  } catch (const Error& e) {
    err << format_error_line("distconfig", e) << "\n";
    r.status = int(e.exit_code());
  }
  r.out = out.str();
  r.err = err.str();
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
