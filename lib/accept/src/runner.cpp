// Orchestrating the acceptance runs (contract in runner.hpp).
#include "distkit/accept/runner.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "distkit/accept/answers.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::accept {

namespace {

namespace fs = std::filesystem;

// A local file's text, "" when absent or unreadable.
std::string text_or_empty(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text of dir/rank-N.log ("" when absent).
std::string rank_log(const fs::path& dir, int rank) {
  return text_or_empty(dir / ("rank-" + std::to_string(rank) + ".log"));
}

struct Context {
  const Task& task;
  const RunnerOptions& o;
  hostfile::Hostfile cluster;
  std::vector<std::string> hosts;  // cluster hosts, hostfile order
  std::string baseline_host;
  fs::path baseline_hostfile;
  HpcOptions hpc;  // with --hpc-nodes (RunnerOptions::hpc), checked
  int hpc_ranks_per_node = 0;
};

std::string script(const char* name, const TemplateFields& fields) {
  return std::string(template_text("accept_hash_file.sh")) +
         render_named(name, fields, TemplateMode::shell);
}

std::vector<std::string> env_list(const Task& t) {
  std::vector<std::string> out;
  for (const auto& [k, v] : t.env) out.push_back(k + "=" + v);
  return out;
}

void say(const Context& c, const std::string& line) {
  if (!c.o.progress) return;
  std::fprintf(c.o.progress, "distaccept: %s\n", line.c_str());
  std::fflush(c.o.progress);
}

// `step`: the run or helper step that was interrupted ("cluster-2", "probe").
void check_interrupt(const LaunchOutcome& r, const std::string& step) {
  if (r.interrupted)
    throw Error(step, "interrupted; every rank was stopped", "", ExitCode::interrupted);
}

Context load(const Task& task, const RunnerOptions& o) {
  Context c{task, o, hostfile::load(o.hostfile), {}, {}, {}, {}, 0};
  for (const auto& h : c.cluster.hosts) c.hosts.push_back(h.ssh);
  c.baseline_host = o.baseline_host.value_or(c.hosts.front());
  if (std::find(c.hosts.begin(), c.hosts.end(), c.baseline_host) == c.hosts.end())
    throw UsageError("--baseline-host",
                     "no host \"" + c.baseline_host + "\" in " + o.hostfile.string(),
                     did_you_mean(c.baseline_host, c.hosts, "give one of the hostfile's hosts"));
  return c;
}

// The cluster's hostfile with `host`'s entry alone, without its RDMA devices.
hostfile::Hostfile one_host(const Context& c, const std::string& host) {
  hostfile::Hostfile one = c.cluster;
  one.hosts = {*std::ranges::find(one.hosts, host, &hostfile::Host::ssh)};
  one.hosts.front().rdma.clear();
  return one;
}

// The baseline host's entry alone, for the baseline runs' --hostfile.
void write_baseline_hostfile(Context& c) {
  hostfile::Hostfile base = one_host(c, c.baseline_host);
  // RDMA (jaccl, jaccl-ring) needs a peer host; one host's ranks use the ring.
  if (base.backend == hostfile::Backend::jaccl || base.backend == hostfile::Backend::jaccl_ring)
    base.backend = hostfile::Backend::ring;
  c.baseline_hostfile = c.o.work_dir / "baseline-hostfile.json";
  hostfile::save(c.baseline_hostfile, base);
}

std::vector<std::string> run_dirs(const Context& c) {
  std::vector<std::string> dirs;
  for (int k = 1; k <= c.task.repetitions; ++k) {
    dirs.push_back((c.o.work_dir / ("baseline-" + std::to_string(k))).string());
    dirs.push_back((c.o.work_dir / ("cluster-" + std::to_string(k))).string());
  }
  if (c.task.resume) dirs.push_back((c.o.work_dir / "resume").string());
  return dirs;
}

// A helper script (the probe, a collection) as a job of its own: no
// preflight, a minute at most. `step` names it if interrupted.
LaunchOutcome run_helper(const Context& c, const fs::path& hostfile, const std::string& script,
                         const fs::path& dir, const std::string& step) {
  launch::LaunchOptions o = launch_options(c.o.access);
  o.hostfile = hostfile;
  o.command = {"/bin/sh", "-c", script};
  o.cwd = c.task.cwd;
  o.log_dir = dir;
  o.preflight = false;
  o.timeout = std::chrono::seconds(60);
  LaunchOutcome out = launch(o);
  check_interrupt(out, step);
  return out;
}

// One host's versions and input hashes, from its rank's probe log.
void add_probe_answer(const Context& c, Evidence& e, const std::string& host,
                      const std::string& log) {
  ProbeAnswer a = parse_probe_answer(log);
  e.versions.push_back({host, a.versions});
  for (const auto& path : c.task.inputs)
    e.inputs[path][host] = a.inputs.count(path) ? a.inputs[path] : "";
}

void probe(const Context& c, Evidence& e) {
  say(c, "probing " + std::to_string(c.hosts.size()) + " host(s)");
  fs::path dir = c.o.work_dir / "probe";
  std::string sh = script("accept_probe.sh", {{"dirs", shell_join(run_dirs(c))},
                                              {"inputs", shell_join(c.task.inputs)}});
  LaunchOutcome out = run_helper(c, c.o.hostfile, sh, dir, "probe");
  if (!out.succeeded()) {
    e.probe_error = out.error.empty() ? "distlaunch exited " + std::to_string(out.exit_code) +
                                            " (see " + dir.string() + ")"
                                      : out.error;
    return;
  }
  for (size_t i = 0; i < c.hosts.size(); ++i)
    add_probe_answer(c, e, c.hosts[i], rank_log(dir, static_cast<int>(i)));
}

void read_manifest(RunRecord& rec) {
  std::string text = text_or_empty(fs::path(rec.dir) / "manifest.json");
  if (text.empty()) return;
  rec.manifest = text;
  auto m = nlohmann::json::parse(text, nullptr, false);
  if (m.is_discarded() || !m.contains("ranks") || !m["ranks"].is_array()) return;
  for (const auto& r : m["ranks"]) {
    RankOutcome k;
    k.rank = r.value("rank", 0);
    k.host = r.value("host", "");
    if (r.contains("error"))
      k.status = r["error"].get<std::string>();
    else if (r.contains("signal"))
      k.status = "killed by signal " + r["signal"].dump();
    else
      k.status = "exited " + r.value("exit_status", nlohmann::json(-1)).dump();
    k.ok = k.status == "exited 0";
    rec.ranks.push_back(k);
  }
}

// What is collected on rank 0's host after a run: the declared files (as
// expanded for the run) and the metrics file, by the collect script.
struct CollectPlan {
  std::vector<std::string> files;
  std::string metrics_file;
  std::string script;
};

CollectPlan collect_plan(const Context& c, const std::string& run_dir) {
  CollectPlan p;
  p.files = expand_words(c.task.files, run_dir, "");
  p.metrics_file =
      c.task.metrics_file ? expand_words({*c.task.metrics_file}, run_dir, "").front() : "";
  p.script = script("accept_collect.sh",
                    {{"files", shell_join(p.files)}, {"metrics_file", p.metrics_file}});
  return p;
}

// The run's metrics and file hashes: the collect script's answer (its
// output on `host`, in rec.dir/collect; none when nothing was collected),
// and rank 0's log when the task declares no metrics file.
void read_collected(const Context& c, RunRecord& rec, const CollectPlan& p,
                    const std::string& host) {
  CollectAnswer a = parse_collect_answer(rank_log(fs::path(rec.dir) / "collect", 0));
  for (size_t i = 0; i < p.files.size(); ++i)
    rec.file_hashes[c.task.files[i]] = a.files.count(p.files[i]) ? a.files[p.files[i]] : "";
  if (!c.task.metrics_file) {
    ParsedMetrics m = metrics_from_log(rank_log(rec.dir, 0));
    rec.metrics = m.values;
    rec.metrics_error = m.error;
  } else if (a.metrics_text) {
    ParsedMetrics m = metrics_from_json(*a.metrics_text);
    rec.metrics = m.values;
    rec.metrics_error = m.error.empty() ? "" : p.metrics_file + ": " + m.error;
  } else {
    rec.metrics_error = p.metrics_file + ": not written on " + host;
  }
}

void collect(const Context& c, RunRecord& rec, const std::string& host) {
  CollectPlan p = collect_plan(c, rec.dir);
  if (!c.task.files.empty() || c.task.metrics_file) {
    fs::path dir = fs::path(rec.dir) / "collect";
    fs::create_directories(dir);
    hostfile::save(dir / "hostfile.json", one_host(c, host));
    run_helper(c, dir / "hostfile.json", p.script, dir, rec.name + " (collecting)");
  }
  read_collected(c, rec, p, host);
}

RunRecord run_once(const Context& c, const std::string& name, const std::string& kind,
                   const std::string& from_dir) {
  bool baseline = kind == "baseline";
  RunRecord rec;
  rec.name = name;
  rec.kind = kind;
  rec.dir = (c.o.work_dir / name).string();
  rec.hosts = baseline ? std::vector<std::string>{c.baseline_host} : c.hosts;
  int n = c.task.ranks_per_host * (baseline ? static_cast<int>(c.hosts.size()) : 1);
  rec.world_size = n * static_cast<int>(rec.hosts.size());
  say(c, name + ": " + std::to_string(rec.world_size) + " rank(s) on " + join(rec.hosts, ","));
  const auto& words = kind == "resume" ? c.task.resume->command : c.task.command;
  launch::LaunchOptions o = launch_options(c.o.access);
  o.hostfile = baseline ? c.baseline_hostfile : c.o.hostfile;
  o.repeat_hosts = n;
  o.command = expand_words(words, rec.dir, from_dir);
  o.cwd = c.task.cwd;
  o.env = env_list(c.task);
  o.log_dir = rec.dir;
  o.timeout = launch::seconds_as_ms(c.task.timeout_s, "timeout_s");  // bounded by the task reader
  LaunchOutcome out = launch(o);
  check_interrupt(out, name);
  rec.exit_code = out.exit_code;
  rec.error = out.error;
  rec.duration_s = out.duration_s;
  read_manifest(rec);
  if (rec.error.empty()) collect(c, rec, rec.hosts.front());
  say(c, name + ": " + (rec.error.empty() ? "exit " + std::to_string(rec.exit_code) : rec.error));
  return rec;
}

// The distlaunch flags every run of the HPC job shares.
std::vector<std::string> hpc_flags(const Context& c) {
  std::vector<std::string> f = {"--cwd", *c.task.cwd, "--no-stdin", "-p",
                                std::to_string(c.o.access.starting_port)};
  if (c.o.access.ssh_config) f.insert(f.end(), {"--ssh-config", c.o.access.ssh_config->string()});
  return f;
}

HpcJob hpc_job(const Context& c, int ranks_per_node) {
  HpcJob job;
  job.name = "distaccept-" + c.task.name;
  job.cwd = *c.task.cwd;
  job.ranks_per_node = ranks_per_node;
  job.dir = c.o.work_dir / "hpc";
  job.probe_flags = hpc_flags(c);
  job.probe_dir = (c.o.work_dir / "probe-hpc").string();
  std::vector<std::string> dirs;
  for (int k = 1; k <= c.task.repetitions; ++k)
    dirs.push_back((c.o.work_dir / ("hpc-" + std::to_string(k))).string());
  job.probe = script("accept_probe.sh",
                     {{"dirs", shell_join(dirs)}, {"inputs", shell_join(c.task.inputs)}});
  for (const auto& dir : dirs) {
    HpcRun r;
    r.dir = dir;
    r.command = expand_words(c.task.command, dir, "");
    r.flags = hpc_flags(c);
    for (const auto& kv : env_list(c.task)) r.flags.insert(r.flags.end(), {"--env", kv});
    if (c.task.timeout_s > 0)
      r.flags.insert(r.flags.end(), {"--timeout", std::to_string(c.task.timeout_s)});
    r.collect = collect_plan(c, dir).script;
    job.runs.push_back(std::move(r));
  }
  return job;
}

// distlaunch's status in a directory of the HPC job (nullopt: not run).
std::optional<int> status_in(const fs::path& dir) {
  std::string text(trim(text_or_empty(dir / "exit_status")));
  if (text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return parse_decimal<int>(text);
}

// The probe's answers: one rank per node, each node's versions and inputs.
void read_hpc_probe(const Context& c, const HpcJob& job, const HpcOutcome& out, Evidence& e) {
  auto status = status_in(job.probe_dir);
  std::string why = !out.error.empty() ? out.error
                    : !status          ? "the Slurm job " + out.job_id + " did not run it"
                    : *status != 0     ? "distlaunch exited " + std::to_string(*status)
                                       : "";
  if (!why.empty()) {
    if (e.probe_error.empty()) e.probe_error = "HPC probe: " + why + " (see " + job.probe_dir + ")";
    return;
  }
  RunRecord probe;
  probe.dir = job.probe_dir;
  read_manifest(probe);
  for (const auto& k : probe.ranks) add_probe_answer(c, e, k.host, rank_log(job.probe_dir, k.rank));
}

// One repetition of the HPC job, from what the job left in its directory.
RunRecord read_hpc_run(const Context& c, const HpcRun& run, int k, const HpcOutcome& out) {
  RunRecord rec;
  rec.name = "hpc-" + std::to_string(k);
  rec.kind = "hpc";
  rec.dir = run.dir;
  rec.slurm_job_id = out.job_id;
  rec.world_size = c.task.ranks_per_host * static_cast<int>(c.hosts.size());
  auto status = status_in(run.dir);
  if (!out.error.empty())
    rec.error = out.error;
  else if (!status)
    rec.error = "the Slurm job " + out.job_id + " did not run it";
  if (!rec.error.empty()) return rec;
  rec.exit_code = *status;
  read_manifest(rec);
  for (const auto& r : rec.ranks)
    if (std::ranges::find(rec.hosts, r.host) == rec.hosts.end()) rec.hosts.push_back(r.host);
  if (rec.manifest) {
    auto m = nlohmann::json::parse(*rec.manifest, nullptr, false);
    if (m.is_object() && m.contains("duration_s") && m["duration_s"].is_number())
      rec.duration_s = m["duration_s"].get<double>();
  }
  read_collected(c, rec, collect_plan(c, rec.dir),
                 rec.hosts.empty() ? "rank 0's node" : rec.hosts.front());
  return rec;
}

void run_hpc(const Context& c, Evidence& e) {
  HpcJob job = hpc_job(c, c.hpc_ranks_per_node);
  say(c, "hpc: a Slurm job of " + std::to_string(c.hpc.nodes) + " node(s) x " +
             std::to_string(job.ranks_per_node) + " rank(s): the probe and " +
             std::to_string(job.runs.size()) + " run(s) (sbatch --wait)");
  HpcOutcome out = submit_hpc_job(c.hpc, job);
  if (out.interrupted)
    throw Error("hpc",
                out.job_id.empty() ? "interrupted before sbatch queued the job"
                : out.error.empty()
                    ? "interrupted; Slurm job " + out.job_id + " was cancelled (scancel)"
                    : "interrupted; " + out.error,
                out.error.empty() ? "" : "cancel it yourself: scancel " + out.job_id,
                ExitCode::interrupted);
  read_hpc_probe(c, job, out, e);
  for (size_t k = 0; k < job.runs.size(); ++k) {
    e.runs.push_back(read_hpc_run(c, job.runs[k], static_cast<int>(k + 1), out));
    const RunRecord& rec = e.runs.back();
    say(c, rec.name + ": " +
               (rec.succeeded()     ? "exit 0 on " + join(rec.hosts, ",")
                : rec.error.empty() ? "exit " + std::to_string(rec.exit_code)
                                    : rec.error));
  }
}

}  // namespace

Evidence run_acceptance(const Task& task, const RunnerOptions& options) {
  Context c = load(task, options);
  if (options.hpc) {
    c.hpc = *options.hpc;
    c.hpc_ranks_per_node = check_hpc(c.hpc, task.ranks_per_host * static_cast<int>(c.hosts.size()));
  }
  make_directory(options.work_dir, "work directory", "choose a writable --work-dir");
  write_baseline_hostfile(c);
  Evidence e;
  try {
    probe(c, e);
    for (const std::string kind : {"baseline", "cluster"})
      for (int k = 1; k <= task.repetitions; ++k)
        e.runs.push_back(run_once(c, kind + "-" + std::to_string(k), kind, ""));
    if (task.resume) {
      const RunRecord& first = e.runs[static_cast<size_t>(task.repetitions)];
      if (first.succeeded()) e.runs.push_back(run_once(c, "resume", "resume", first.dir));
    }
    if (options.hpc) run_hpc(c, e);
  } catch (const Error& x) {
    if (x.exit_code() != ExitCode::interrupted) throw;
    e.interrupted = problem_of(x, "interrupted");  // the report records what ran
  }
  return e;
}

}  // namespace distkit::accept
