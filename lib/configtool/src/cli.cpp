// See cli.hpp. Help texts are short; the man page has the details.
#include "distkit/configtool/cli.hpp"

#include <limits>

#include "distkit/util/tool_main.hpp"
#include "distkit/version.hpp"

namespace distkit::configtool {

void configure_cli(CLI::App& app, Options& o) {
  app.description("Probe hosts, find their Thunderbolt topology and write an MLX hostfile");
  app.set_version_flag("--version", std::string("distconfig ") + kVersion);
  app.add_option("--hosts", o.hosts, "Comma-separated hosts (default 127.0.0.1)");
  app.add_option("--hostfile", o.hostfile, "Read the hosts from this hostfile");
  app.add_option("--over", o.over, "What to configure: thunderbolt or ethernet")
      ->check(CLI::IsMember({"thunderbolt", "ethernet"}));
  app.add_option("--backend", o.backend, "ring, jaccl or jaccl-ring (default: automatic)")
      ->check(CLI::IsMember({"ring", "jaccl", "jaccl-ring"}));
  app.add_flag_callback(
      "--auto-setup", [&o] { o.auto_setup = true; },
      "Configure the hosts' point-to-point addresses over SSH (sudo -n), then verify");
  app.add_flag_callback(
      "--no-auto-setup", [&o] { o.auto_setup = false; }, "Only print the network setup commands");
  app.add_flag("--dot", o.dot, "Print the topology as a Graphviz DOT graph and exit");
  app.add_flag("--matrix", o.matrix, "Print the cable count matrix and exit");
  app.add_option("--output-hostfile,--output", o.output_hostfile,
                 "Write the hostfile here (atomically) instead of stdout");
  app.add_option("--format", o.format,
                 "Hostfile format: mlx (JSON), openmpi, mpich, slurm or deepspeed (default mlx)");
  app.add_option("--env", o.envs, "KEY=VALUE for the ranks (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--ignore-unreachable", o.ignore_unreachable, "Go on with the reachable hosts");
  app.add_flag("--verbose", o.verbose, "Say what is being done on stderr");
  app.add_option("--ssh-config", o.ssh_config, "ssh_config file to use");
  app.add_option("--save-probes", o.save_probes, "Save every host's raw probe output here");
  app.add_option("--from-probes", o.from_probes, "Replay probes saved with --save-probes (no SSH)");
  app.add_flag("--check", o.check, "Print a readiness report and a verdict per backend");
  app.add_flag("--json", o.json, "Machine-readable report on stdout");
  app.add_option("--subnet", o.subnet,
                 "Network for the point-to-point /30s (default 10.213.0.0/16)");
  app.add_option("--links", o.links, "File declaring cables by hand: hostA:ifA hostB:ifB per line");
  app.add_option("--emit-scripts", o.emit_scripts,
                 "Write per-host setup, teardown and verify scripts into this directory");
  app.add_flag("--verify", o.verify, "Test TCP between every cabled pair on the backend's port");
  app.add_option("--verify-port", o.verify_port, "TCP port --verify tests (default 32323)")
      ->check(whole_number(1, 65535));
  app.add_flag("--teardown", o.teardown, "Undo what network setup changed on every host");
  app.add_flag("--persist", o.persist,
               "Re-apply the setup at boot (launchd on macOS, systemd on Linux)");
  app.add_flag(
      "--bridge-down", o.bridge_down,
      "macOS: bring bridge0 down (as the reference) instead of taking the ports out of it");
  app.add_flag("--doctor", o.doctor,
               "Check every hop the backend will use: route, connect, daemons, RDMA GIDs, speed");
  app.add_option("--watch", o.watch,
                 "Re-run the link checks every SECONDS; print changes, log every check");
  app.add_option("--count", o.count, "With --watch: stop after N rounds (default: until Ctrl-C)")
      ->check(whole_number(0, std::numeric_limits<int>::max()));
  app.add_option(
      "--history", o.history,
      "With --watch: append one JSON line per check here (default distconfig-watch.jsonl)");
  app.add_flag("--fail-on-drift", o.fail_on_drift, "With --watch: exit 1 at the first drift");
  app.add_option("--test-port", o.test_port,
                 "TCP port --doctor/--watch test on (default 32322; never one of the job's)")
      ->check(whole_number(1, 65535));
  app.add_option("--job-port", o.job_port,
                 "The job's first port (distlaunch --starting-port, default 32323): left alone")
      ->check(whole_number(1, 65535));
  app.add_option("--state-file", o.state_file,
                 "Where each host records what setup changed (%h: host; default per OS)");
}

}  // namespace distkit::configtool
