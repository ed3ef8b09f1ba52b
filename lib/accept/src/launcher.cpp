// Running one distlaunch job in-process (contract in launcher.hpp).
#include "distkit/accept/launcher.hpp"

#include <chrono>
#include <cstdio>

#include "distkit/launch/distlaunch.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"

namespace distkit::accept {

launch::LaunchOptions launch_options(const ClusterAccess& a) {
  launch::LaunchOptions o;
  o.no_stdin = true;
  o.ssh_config = a.ssh_config;
  o.accept_new_host_keys = a.accept_new_host_keys;
  o.starting_port = a.starting_port;
  o.connect_timeout = a.connect_timeout;
  return o;
}

LaunchOutcome launch(const launch::LaunchOptions& options) {
  LaunchOutcome out;
  make_directory(*options.log_dir, "run directory", "choose a writable --work-dir");
  auto log_path = *options.log_dir / "distlaunch.log";
  std::FILE* log = std::fopen(log_path.c_str(), "w");
  if (!log) throw Error(log_path.string(), "cannot write", "choose a writable --work-dir");
  auto start = std::chrono::steady_clock::now();
  try {
    auto result = launch::run_distlaunch(options, {.out = log, .err = log, .stdin_fd = -1});
    out.exit_code = result.exit_code;
    out.interrupted = result.interrupted;
  } catch (const Error& e) {
    out.error = std::string("distlaunch: ") + e.what();
    out.exit_code = static_cast<int>(e.exit_code());
    std::fprintf(log, "%s\n", format_error_line("distlaunch", e).c_str());
  }
  std::fclose(log);
  out.duration_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace distkit::accept
