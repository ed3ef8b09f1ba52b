// Orchestrating the acceptance runs (contract in runner.hpp).
#include "distkit/accept/runner.hpp"

#include <nlohmann/json.hpp>

#include "distkit/accept/answers.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::accept {

namespace {

namespace fs = std::filesystem;

struct Context {
  const Task& task;
  const RunnerOptions& o;
  hostfile::Hostfile cluster;
  std::vector<std::string> hosts;  // cluster hosts, hostfile order
  std::string baseline_host;
  fs::path baseline_hostfile;
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
  Context c{task, o, hostfile::load(o.hostfile), {}, {}, {}};
  for (const auto& h : c.cluster.hosts) c.hosts.push_back(h.ssh);
  c.baseline_host = o.baseline_host.value_or(c.hosts.front());
  auto it = std::find_if(c.cluster.hosts.begin(), c.cluster.hosts.end(),
                         [&](const hostfile::Host& h) { return h.ssh == c.baseline_host; });
  if (it == c.cluster.hosts.end())
    throw UsageError("--baseline-host",
                     "no host \"" + c.baseline_host + "\" in " + o.hostfile.string(),
                     did_you_mean(c.baseline_host, c.hosts, "give one of the hostfile's hosts"));
  return c;
}

// The baseline host's entry alone, for the baseline runs' --hostfile.
void write_baseline_hostfile(Context& c) {
  hostfile::Hostfile base = c.cluster;
  auto it = std::find_if(base.hosts.begin(), base.hosts.end(),
                         [&](const hostfile::Host& h) { return h.ssh == c.baseline_host; });
  base.hosts = {*it};
  base.hosts.front().rdma.clear();
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

void probe(const Context& c, Evidence& e) {
  say(c, "probing " + std::to_string(c.hosts.size()) + " host(s)");
  LaunchRequest r;
  r.hostfile = c.o.hostfile;
  r.command = {"/bin/sh", "-c",
               script("accept_probe.sh",
                      {{"dirs", shell_join(run_dirs(c))}, {"inputs", shell_join(c.task.inputs)}})};
  r.cwd = c.task.cwd;
  r.dir = c.o.work_dir / "probe";
  r.preflight = false;
  r.timeout_s = 60;
  LaunchOutcome out = launch(c.o.access, r);
  check_interrupt(out, "probe");
  if (!out.succeeded()) {
    e.probe_error = out.error.empty() ? "distlaunch exited " + std::to_string(out.exit_code) +
                                            " (see " + r.dir.string() + ")"
                                      : out.error;
    return;
  }
  for (size_t i = 0; i < c.hosts.size(); ++i) {
    ProbeAnswer a = parse_probe_answer(rank_log(r.dir, static_cast<int>(i)));
    e.versions.push_back({c.hosts[i], a.versions});
    for (const auto& path : c.task.inputs)
      e.inputs[path][c.hosts[i]] = a.inputs.count(path) ? a.inputs[path] : "";
  }
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

void collect(const Context& c, RunRecord& rec, const std::string& host) {
  if (!c.task.metrics_file) {
    ParsedMetrics m = metrics_from_log(rank_log(rec.dir, 0));
    rec.metrics = m.values;
    rec.metrics_error = m.error;
  }
  if (c.task.files.empty() && !c.task.metrics_file) return;
  hostfile::Hostfile one = c.cluster;
  auto it = std::find_if(one.hosts.begin(), one.hosts.end(),
                         [&](const hostfile::Host& h) { return h.ssh == host; });
  one.hosts = {*it};
  one.hosts.front().rdma.clear();
  fs::path dir = fs::path(rec.dir) / "collect";
  fs::create_directories(dir);
  hostfile::save(dir / "hostfile.json", one);
  std::vector<std::string> files = expand_words(c.task.files, rec.dir, "");
  std::string metrics_file =
      c.task.metrics_file ? expand_words({*c.task.metrics_file}, rec.dir, "").front() : "";
  LaunchRequest r;
  r.hostfile = dir / "hostfile.json";
  r.command = {
      "/bin/sh", "-c",
      script("accept_collect.sh", {{"files", shell_join(files)}, {"metrics_file", metrics_file}})};
  r.cwd = c.task.cwd;
  r.dir = dir;
  r.preflight = false;
  r.timeout_s = 60;
  LaunchOutcome out = launch(c.o.access, r);
  check_interrupt(out, rec.name + " (collecting)");
  CollectAnswer a = parse_collect_answer(rank_log(dir, 0));
  for (size_t i = 0; i < files.size(); ++i)
    rec.file_hashes[c.task.files[i]] = a.files.count(files[i]) ? a.files[files[i]] : "";
  if (c.task.metrics_file) {
    if (a.metrics_text) {
      ParsedMetrics m = metrics_from_json(*a.metrics_text);
      rec.metrics = m.values;
      rec.metrics_error = m.error.empty() ? "" : metrics_file + ": " + m.error;
    } else {
      rec.metrics_error = metrics_file + ": not written on " + host;
    }
  }
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
  LaunchRequest r;
  r.hostfile = baseline ? c.baseline_hostfile : c.o.hostfile;
  r.ranks_per_host = n;
  const auto& words = kind == "resume" ? c.task.resume->command : c.task.command;
  r.command = expand_words(words, rec.dir, from_dir);
  r.cwd = c.task.cwd;
  r.env = env_list(c.task);
  r.dir = rec.dir;
  r.timeout_s = c.task.timeout_s;
  LaunchOutcome out = launch(c.o.access, r);
  check_interrupt(out, name);
  rec.exit_code = out.exit_code;
  rec.error = out.error;
  rec.duration_s = out.duration_s;
  read_manifest(rec);
  if (rec.error.empty()) collect(c, rec, rec.hosts.front());
  say(c, name + ": " +
             (rec.succeeded()     ? "exit 0"
              : rec.error.empty() ? "exit " + std::to_string(rec.exit_code)
                                  : rec.error));
  return rec;
}

}  // namespace

Evidence run_acceptance(const Task& task, const RunnerOptions& options) {
  Context c = load(task, options);
  std::error_code ec;
  fs::create_directories(options.work_dir, ec);
  if (ec)
    throw Error(options.work_dir.string(),
                "cannot create the work directory (" + ec.message() + ")",
                "choose a writable --work-dir");
  write_baseline_hostfile(c);
  Evidence e;
  probe(c, e);
  for (int k = 1; k <= task.repetitions; ++k)
    e.runs.push_back(run_once(c, "baseline-" + std::to_string(k), "baseline", ""));
  for (int k = 1; k <= task.repetitions; ++k)
    e.runs.push_back(run_once(c, "cluster-" + std::to_string(k), "cluster", ""));
  if (task.resume) {
    const RunRecord& first = e.runs[static_cast<size_t>(task.repetitions)];
    if (first.succeeded()) e.runs.push_back(run_once(c, "resume", "resume", first.dir));
  }
  return e;
}

}  // namespace distkit::accept
