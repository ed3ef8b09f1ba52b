// distlaunch's command line: mlx.launch's flags (same names, same defaults)
// and distkit's own. Durations are given in seconds.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <limits>

#include "distkit/launch/distlaunch.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/tool_main.hpp"
#include "distkit/version.hpp"

namespace distkit::launch {

std::chrono::milliseconds seconds_as_ms(double seconds, const std::string& flag, double least) {
  // Checked before the conversion, which NaN and infinity do not survive:
  // they once became undefined or negative durations without a word.
  constexpr double kYear = 365.0 * 24 * 3600;
  if (!(seconds >= least && seconds <= kYear))
    throw UsageError(
        flag, fmt::format("{} is not a number of seconds from {} to {}", seconds, least, kYear),
        "e.g. " + flag + " 30");
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

std::vector<std::string> split_command(int argc, char** argv, LaunchOptions& options) {
  std::vector<std::string> before = arguments(argc, argv);
  auto dash = std::find(before.begin(), before.end(), "--");
  if (dash != before.end()) options.command.insert(options.command.end(), dash + 1, before.end());
  before.erase(dash, before.end());
  return before;
}

void configure_cli(CLI::App& app, LaunchOptions& o) {
  app.description(
      "Start a command on every rank of a cluster, supervise it and clean up.\n"
      "Drop-in for mlx.launch: distlaunch [flags] -- command [args...]");
  app.set_version_flag("--version", std::string("distlaunch ") + kVersion);
  app.add_option("--hosts", o.hosts, "Comma-separated hosts (names or IPs)");
  app.add_option("-n,--repeat-hosts", o.repeat_hosts,
                 "Ranks per host (in place: a,a,b,b); inside a Slurm allocation, instead of its "
                 "task layout")
      ->check(whole_number(1, std::numeric_limits<int>::max()));
  app.add_option("--hostfile", o.hostfile, "MLX hostfile (JSON)");
  app.add_option("--backend", o.backend, "ring, jaccl, jaccl-ring, nccl or mpi");
  app.add_option("--env", o.env, "KEY=VALUE for every rank (repeatable)");
  app.add_option("--mpi-arg", o.mpi_args, "Extra argument for mpirun (repeatable)");
  app.add_option("--connections-per-ip", o.connections_per_ip, "Ring connections per address")
      ->check(whole_number(1, std::numeric_limits<int>::max()));
  app.add_option("-p,--starting-port", o.starting_port, "First port of the ring/coordinator")
      ->check(whole_number(1, 65535));
  app.add_option("--cwd", o.cwd, "Working directory on every host (must exist)");
  app.add_option("--nccl-port", o.nccl_port, "NCCL coordinator port")
      ->check(whole_number(1, 65535));
  app.add_option("--python", o.python, "Interpreter put before the command (any command)");
  app.add_flag("--verbose", o.verbose,
               "Say what happens; ranks get MLX_RING_VERBOSE=1 (ring) or NCCL_DEBUG=INFO (nccl)");
  app.add_flag("--print-python", o.print_python,
               "Print --python, else the absolute path of python3 on PATH, and exit");
  app.add_option("--ssh-config", o.ssh_config, "ssh_config file to read");
  app.add_option("--launcher", o.launcher,
                 "How ranks reach their hosts: ssh, or srun (a job step per node; the default "
                 "inside a Slurm allocation, where SLURM_JOB_ID is set)")
      ->check(CLI::IsMember({"ssh", "srun"}));
  app.add_flag("--accept-new-host-keys", o.accept_new_host_keys,
               "Accept unknown host keys (never changed ones)");
  app.add_flag("--dry-run", o.dry_run, "Print the plan (rank, host, env, start request) and exit");
  app.add_flag("--json", o.json, "Machine-readable --dry-run output");
  app.add_flag("--tag-output", o.tag_output, "Prefix every output line with [rank host]");
  app.add_option("--log-dir", o.log_dir, "Also write rank-N.log files (and the manifest) here");
  app.add_option("--record", o.record_dir, "Write the run manifest (manifest.json) here");
  app.add_option("--debug-log", o.debug_log,
                 "Append a timestamped record of the job to FILE: hosts, agents, preflight "
                 "answers, rank starts and ends, every stop decision");
  app.add_option("--stdin-rank", o.stdin_rank, "Give stdin to this rank only (default: all)")
      ->check(whole_number(0, std::numeric_limits<int>::max()));
  app.add_flag("--no-stdin", o.no_stdin,
               "Do not read stdin (ranks see EOF; use when running in the background)");
  auto seconds_flag = [&app](const std::string& name, std::chrono::milliseconds& to,
                             const char* help, double least = 0) {
    app.add_option_function<double>(
        name, [&to, name, least](double s) { to = seconds_as_ms(s, name, least); }, help);
  };
  seconds_flag("--grace", o.grace, "Seconds between SIGTERM and SIGKILL (default 3)");
  seconds_flag("--timeout", o.timeout, "Stop the job after this many seconds");
  seconds_flag("--exit-window", o.exit_window,
               "Seconds the other ranks get after one exits 0 (default 60, 0 = forever)");
  seconds_flag("--connect-timeout", o.connect_timeout, "Seconds to reach each host (default 10)",
               0.001);
  // Two durations in whole seconds, checked as the others are.
  auto whole_seconds = [](double s, const std::string& flag, double least) {
    const auto ms = seconds_as_ms(s, flag, least);
    if (ms.count() % 1000 != 0)
      throw UsageError(flag, fmt::format("{} is not a whole number of seconds", s),
                       "e.g. " + flag + " 30");
    return std::chrono::duration_cast<std::chrono::seconds>(ms);
  };
  app.add_option_function<double>(
         "--stall-timeout",
         [&o, whole_seconds](double s) { o.stall_limit = whole_seconds(s, "--stall-timeout", 0); },
         "Seconds without progress of any rank (output, I/O, heartbeat, stdin) that make a "
         "stall: report, stacks, then --on-stall (default 0 = off)")
      ->type_name("INT");
  app.add_option_function<std::string>(
         "--on-stall", [&o](const std::string& v) { o.stall_dump_only = v == "dump"; },
         "What a stall does: abort (stop the job, exit 124; the default) or dump (report and go "
         "on)")
      ->check(CLI::IsMember({"abort", "dump"}));
  app.add_option("--restart", o.restart,
                 "Start the whole job again when it fails: no (the default), on-failure (any "
                 "failure) or on-stall (a stall or a failed health check)")
      ->check(CLI::IsMember({"no", "on-failure", "on-stall"}));
  app.add_option("--max-restarts", o.max_restarts,
                 "Restarts before the job's failure stands (default 3); the waits double from 1 "
                 "s up to the heartbeat limit")
      ->check(whole_number(0, std::numeric_limits<int>::max()));
  auto* health_cmd = app.add_option(
      "--health-cmd", o.health_cmd,
      "A shell command run on rank 0's host every --health-interval seconds; its failure is a "
      "stall");
  app.add_option("--health-url", o.health_url,
                 "A URL that curl on rank 0's host must fetch every --health-interval seconds; a "
                 "failure is a stall")
      ->excludes(health_cmd);
  app.add_option_function<double>(
         "--health-interval",
         [&o, whole_seconds](double s) {
           o.health_interval = whole_seconds(s, "--health-interval", 1);
         },
         "Seconds between health checks, and the time each may take (default 10)")
      ->type_name("INT");
  app.add_option("--agent", o.agent,
                 "distkit-agent (the host agent) installed on the hosts: a path, or none "
                 "(default: PATH, then beside distlaunch, /opt/homebrew/bin, /usr/local/bin; "
                 "else, and with none, distlaunch copies its own)");
  app.add_flag_function(
      "--no-preflight", [&o](std::int64_t) { o.preflight = false; },
      "Skip the checks before the start");
}

}  // namespace distkit::launch
