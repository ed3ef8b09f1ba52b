// run_distconfig: the pipeline, one call per step (resolve hosts, probe,
// analyse, pick a backend, write the hostfile).
#include "distkit/configtool/distconfig.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "diagnostics.hpp"
#include "distkit/hostfile/export.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/netsetup/from_topology.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/topology/render.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"
#include "doctor_flow.hpp"
#include "gather.hpp"
#include "netsetup_flow.hpp"
#include "readiness.hpp"
#include "thunderbolt_flow.hpp"
#include "watch_flow.hpp"

namespace distkit::configtool {

namespace {

void check_envs(const Options& o, Services& s) {
  hostfile::validate({.backend = {}, .envs = o.envs, .hosts = {{"check", {}, {}}}}, "--env");
  for (const auto& e : o.envs)
    if (auto advice = hostfile::env_advice(e); !advice.empty())
      report(s, {{"--env", "env-advice", advice, "", Severity::warning}});
}

// "mlx" or one of the export formats; the suggestion covers both.
void check_format(const std::string& format) {
  const std::vector<std::string> names{"mlx", "openmpi", "mpich", "slurm", "deepspeed"};
  if (std::find(names.begin(), names.end(), format) != names.end()) return;
  throw UsageError("--format", "unknown hostfile format \"" + format + "\"",
                   did_you_mean(format, names, "use one of " + join(names, ", ")));
}

// A file the run writes at the end, checked before any host is probed: a
// missing directory (a typo) was found only after the probes, as exit 1.
void check_output_file(const std::filesystem::path& file, const std::string& flag) {
  std::error_code ec;
  if (file.empty()) throw UsageError(flag, "is empty", "give a file path");
  if (std::filesystem::is_directory(file, ec))
    throw UsageError(flag, file.string() + " is a directory", "give a file path inside it");
  auto dir = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  if (!std::filesystem::is_directory(dir, ec))
    throw UsageError(flag, "no directory " + dir.string() + " for " + file.string(),
                     "create it, or give a path in an existing directory");
}

void check_flags(const Options& o) {
  if (o.from_probes && o.save_probes)
    throw UsageError("--save-probes", "cannot be combined with --from-probes",
                     "the replayed probes are already saved");
  std::error_code ec;
  if (o.from_probes && !std::filesystem::is_directory(*o.from_probes, ec))
    throw UsageError("--from-probes",
                     o.from_probes->string() + (std::filesystem::exists(*o.from_probes, ec)
                                                    ? " is not a directory"
                                                    : ": no such directory"),
                     "give the directory --save-probes wrote");
  if (o.output_hostfile) check_output_file(*o.output_hostfile, "--output-hostfile");
  if (o.watch) check_output_file(o.history, "--history");
  check_format(o.format);
  check_doctor_flags(o);
  check_netsetup_flags(o);
  // Over Ethernet the ring runs on each host's address (what an MLX user
  // types for a TCP ring); the jaccl backends need Thunderbolt cables.
  if (o.over == "ethernet" && o.backend && *o.backend != "ring")
    throw UsageError("--backend", *o.backend + " needs --over thunderbolt (RDMA over its cables)",
                     "use --backend ring over Ethernet, or --over thunderbolt");
}

// The directories the run writes into are made before any host is probed:
// one that cannot be made is a usage error (exit 2) now, not a failure
// (exit 1) after the probes, with the hostfile already written.
void make_output_dirs(const Options& o) {
  if (o.save_probes)
    make_directory<UsageError>(*o.save_probes, "probe directory",
                               "choose a writable --save-probes directory");
  if (o.emit_scripts)
    make_directory<UsageError>(*o.emit_scripts, "script directory",
                               "choose a writable --emit-scripts directory");
}

// `management_ips`: the file's ips are the hosts' management addresses (not
// the addresses of a Thunderbolt ring's links), so an empty one is worth a
// warning.
void write_hostfile(const Options& o, Services& s, const hostfile::Hostfile& hf,
                    bool management_ips) {
  for (const auto& h : hf.hosts)
    if (h.ips.empty() && management_ips)
      report(s, {{h.ssh, "no-address", "no management address found; its \"ips\" is empty", "",
                  Severity::warning}});
  // Other launchers' formats carry names and slot counts only: the MLX
  // hostfile stays the one that holds addresses and RDMA devices.
  std::string text =
      o.format == "mlx"
          ? hostfile::serialize(hf)
          : hostfile::export_hosts(hf.hosts, hostfile::parse_export_format(o.format, "--format"));
  if (o.output_hostfile) {
    write_file_atomic(*o.output_hostfile, text);
    verbose(o, s, "wrote " + o.output_hostfile->string());
  } else {
    s.out << text << (o.format == "mlx" ? "\n" : "");
  }
}

int ethernet(const Options& o, Services& s, const std::vector<probe::HostInfo>& infos) {
  // MLX accepts --auto-setup here and has nothing to set up: neither have we.
  if (o.auto_setup.value_or(false))
    note(s,
         "--auto-setup: nothing to set up over Ethernet (the hosts' existing addresses are used)");
  if (o.check) {
    auto t = topology::build_topology(infos);
    return readiness_report(o, s, infos, t, topology::analyze(t, infos));
  }
  auto hf = topology::ethernet_hostfile(infos, o.envs);
  // mlx.distributed_config writes "" here either way; both run as ring, but
  // the ring asked for is what the file says.
  if (o.backend == "ring") hf.backend = hostfile::Backend::ring;
  write_hostfile(o, s, hf, true);
  return 0;
}

int thunderbolt(const Options& o, Services& s, Gathered& g) {
  const auto& infos = g.infos;
  if (o.teardown) return network_teardown(o, s, g);
  auto t = o.links ? links_topology(o, s, infos) : topology::build_topology(infos);
  if (!o.links) warn_topology(s, t, infos);
  if (o.dot || o.matrix) {
    s.out << (o.dot ? topology::render_dot(t) : topology::render_matrix(t));
    return 0;
  }
  if (o.doctor || o.watch) {
    auto plan = plan_network(o, s, g, t);
    return o.doctor ? run_doctor(o, s, g, t, plan) : run_watch(o, s, g, t, plan);
  }
  auto a = topology::analyze(t, infos);
  if (o.check) return readiness_report(o, s, infos, t, a);
  auto plan = plan_network(o, s, g, t);
  if (o.verify && !o.auto_setup.value_or(false)) return network_verify(o, s, g, plan);
  topology::Choice c = pick_backend(o, s, t, a);
  auto hf = thunderbolt_hostfile(c, t, a, infos, o.envs, netsetup::link_addresses(plan));
  write_hostfile(o, s, hf, hf.backend != hostfile::Backend::ring);
  return network_setup(o, s, g, plan);
}

}  // namespace

int run_distconfig(const Options& o, Services& s) {
  check_flags(o);
  check_envs(o, s);
  auto hosts = resolve_hosts(o);
  make_output_dirs(o);
  verbose(o, s, "probing " + std::to_string(hosts.size()) + " host(s)");
  auto g = gather(o, s, hosts);
  return o.over == "ethernet" ? ethernet(o, s, g.infos) : thunderbolt(o, s, g);
}

}  // namespace distkit::configtool
