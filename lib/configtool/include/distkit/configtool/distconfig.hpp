// distconfig's real entry point: a library function taking parsed options
// and its services (how to reach hosts, where output goes), so tests run the
// whole tool in-process. apps/distconfig.cpp only parses argv and catches.
//
// Drop-in for mlx.distributed_config: same flags, same hostfile schema;
// plus --check/--json (readiness report), --save-probes/--from-probes
// (offline replay), --ssh-config, --matrix and --format (hostfiles for
// other launchers), and network setup (--auto-setup, --verify,
// --teardown, --persist, --links, --subnet, --emit-scripts), --doctor
// and --watch (link health).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "distkit/ssh/connect.hpp"
#include "distkit/util/problem.hpp"

namespace distkit::configtool {

struct Options {
  std::string hosts = "127.0.0.1";                // --hosts a,b,c (MLX's default)
  std::optional<std::filesystem::path> hostfile;  // --hostfile (wins over --hosts)
  std::string over = "thunderbolt";               // thunderbolt | ethernet
  std::optional<std::string> backend;             // ring | jaccl | jaccl-ring; unset: auto
  std::optional<bool> auto_setup;                 // --auto-setup / --no-auto-setup
  bool dot = false;
  bool matrix = false;
  std::optional<std::filesystem::path> output_hostfile;
  // --format: mlx (the JSON hostfile) or another launcher's hostfile:
  // openmpi, mpich, slurm, deepspeed (distkit::hostfile::ExportFormat).
  std::string format = "mlx";
  std::vector<std::string> envs;  // --env K=V (repeatable)
  bool ignore_unreachable = false;
  bool verbose = false;
  std::optional<std::filesystem::path> ssh_config;
  std::optional<std::filesystem::path> save_probes;
  std::optional<std::filesystem::path> from_probes;
  bool check = false;
  bool json = false;
  // Network setup (lib/netsetup; man page NETWORK SETUP).
  std::string subnet;                                 // --subnet; "" = netsetup::kDefaultSubnet
  std::optional<std::filesystem::path> links;         // --links FILE: cables declared by hand
  std::optional<std::filesystem::path> emit_scripts;  // --emit-scripts DIR
  bool verify = false;                                // --verify
  bool teardown = false;                              // --teardown
  bool persist = false;                               // --persist
  bool bridge_down = false;                           // --bridge-down (macOS, as the reference)
  int verify_port = 32323;                            // --verify-port
  std::string state_file;                             // --state-file PATTERN ("%h": host)
  // Link health (man page DOCTOR AND WATCH): --doctor checks once, --watch
  // re-runs the bounded link checks every `watch` seconds.
  bool doctor = false;          // --doctor
  std::optional<double> watch;  // --watch SECONDS
  int count = 0;                // --count N rounds; 0 = until interrupted
  std::filesystem::path history = "distconfig-watch.jsonl";  // --history FILE
  bool fail_on_drift = false;                                // --fail-on-drift
  int test_port = 32322;  // --test-port: what the checks connect to
  int job_port = 32323;   // --job-port: distlaunch's --starting-port
};

using ConnectFn =
    std::function<ssh::Connections(const std::vector<std::string>&, const ssh::ConnectOptions&)>;

struct Services {
  ConnectFn connect;   // ssh::connect_all in the tool
  std::ostream& out;   // the product: hostfile, DOT, report
  std::ostream& err;   // diagnostics
  bool color = false;  // colour diagnostics (TTY and no NO_COLOR)
  // Every problem reported so far (diagnostics.hpp), for the --json reports.
  std::vector<Problem> problems = {};
};

// Runs distconfig. Returns the exit status for outcomes that are reported
// in full on `err` (e.g. 1 when the readiness check fails); throws
// distkit::Error (UsageError: exit 2, RemoteError: exit 1) for the single
// line the caller prints as `distconfig: error: ...`.
int run_distconfig(const Options& options, Services& services);

}  // namespace distkit::configtool
