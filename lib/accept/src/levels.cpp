// Judging the three levels from the evidence (contract in levels.hpp). One
// function per level; each check's text is the evidence a reader needs.
#include "distkit/accept/levels.hpp"

#include <algorithm>
#include <map>

#include "distkit/util/strings.hpp"

namespace distkit::accept {

namespace {

bool is_main_run(const RunRecord& r) {
  return r.kind == "baseline" || r.kind == "cluster" || r.kind == "hpc";
}

Check pass(std::string subject, std::string what, std::string more = "") {
  return {true, std::move(subject), "", std::move(what), std::move(more)};
}

Check fail(std::string subject, std::string kind, std::string what, std::string more = "") {
  return {false, std::move(subject), std::move(kind), std::move(what), std::move(more)};
}

Check run_check(const RunRecord& r) {
  std::string where = r.dir.empty() ? "" : "logs in " + r.dir;
  if (!r.error.empty()) return fail(r.name, "did-not-run", "did not run: " + r.error, where);
  std::vector<std::string> bad;
  for (const auto& k : r.ranks)
    if (!k.ok) bad.push_back("rank " + std::to_string(k.rank) + " on " + k.host + " " + k.status);
  if (r.exit_code != 0 || !bad.empty()) {
    std::string why =
        bad.empty() ? "distlaunch exited " + std::to_string(r.exit_code) : join(bad, ", ");
    return fail(r.name, "run-failed", why, where);
  }
  std::string job = r.slurm_job_id.empty() ? "" : " (Slurm job " + r.slurm_job_id + ")";
  return pass(r.name,
              std::to_string(r.world_size) + " rank(s) on " + join(r.hosts, ",") + job +
                  " exited 0 in " + seconds_text(r.duration_s),
              where);
}

Level judge_runs(const Evidence& e) {
  Level l{"runs", true, {}};
  for (const auto& r : e.runs)
    if (is_main_run(r)) l.checks.push_back(run_check(r));
  if (l.checks.empty()) l.checks.push_back(fail("", "no-run", "no run was made"));
  return l;
}

std::vector<Sample> samples_of(const std::vector<const RunRecord*>& runs,
                               const std::string& metric) {
  std::vector<Sample> out;
  for (const auto* r : runs) {
    auto it = r->metrics.find(metric);
    out.push_back({r->name, it == r->metrics.end() ? std::nullopt : std::optional(it->second)});
  }
  return out;
}

Check metric_check(const std::string& name, const Tolerance& tol,
                   const std::vector<const RunRecord*>& runs) {
  for (const auto* r : runs)
    if (!r->metrics_error.empty() && !r->metrics.count(name))
      return fail(name, "no-metrics", "no metrics from " + r->name + " (" + r->metrics_error + ")");
  Agreement a = compare_metric(tol, samples_of(runs, name));
  return {a.ok, name, a.ok ? "" : "metric-differs", a.detail, ""};
}

Check file_check(const std::string& path, const std::vector<const RunRecord*>& runs) {
  std::vector<Sample> samples;
  for (const auto* r : runs) {
    auto it = r->file_hashes.find(path);
    if (it == r->file_hashes.end() || it->second.empty())
      return fail(path, "file-missing", "missing after " + r->name);
    samples.push_back({r->name, MetricValue::of(it->second)});
  }
  Agreement a = compare_metric({.exact = true}, samples);
  return {a.ok, path, a.ok ? "" : "file-differs", "sha256 " + a.detail, ""};
}

// The most common of the values (the first of the most common on a tie).
std::string most_common(const std::map<std::string, std::string>& by_host) {
  std::map<std::string, int> count;
  for (const auto& [host, v] : by_host) count[v]++;
  return std::max_element(count.begin(), count.end(),
                          [](auto& a, auto& b) { return a.second < b.second; })
      ->first;
}

// One failing check per host whose value differs from the most common one.
void version_checks(const Evidence& e, Level& l) {
  if (!e.probe_error.empty()) {
    l.checks.push_back(fail("versions", "probe-failed", "could not be gathered: " + e.probe_error));
    return;
  }
  for (const char* key : {"os", "python", "mlx", "distkit"}) {
    std::map<std::string, std::string> by_host;
    for (const auto& h : e.versions) by_host[h.host] = h.values.count(key) ? h.values.at(key) : "";
    std::string common = by_host.empty() ? "" : most_common(by_host);
    std::string shown = common.empty() ? "none" : "\"" + common + "\"";
    bool odd = false;
    for (const auto& h : e.versions) {
      const std::string& v = by_host[h.host];
      if (v == common) continue;
      odd = true;
      l.checks.push_back(
          fail(h.host, v.empty() ? "not-installed" : "version-differs",
               (v.empty() ? "no " + std::string(key) : std::string(key) + " \"" + v + "\"") +
                   " while the other hosts have " + shown));
    }
    if (!odd)
      l.checks.push_back(
          pass(key, shown + " on all " + std::to_string(e.versions.size()) + " host(s)"));
  }
}

// One failing check per host whose copy of an input differs from the most
// common one (missing copies are deliverable's).
void input_checks(const Task& t, const Evidence& e, Level& l) {
  for (const auto& path : t.inputs) {
    auto it = e.inputs.find(path);
    if (it == e.inputs.end()) continue;  // not gathered: reported by deliverable
    std::map<std::string, std::string> hashed;
    for (const auto& [host, hash] : it->second)
      if (!hash.empty()) hashed[host] = hash;
    if (hashed.empty()) continue;
    std::string common = most_common(hashed);
    for (const auto& [host, hash] : hashed)
      if (hash != common)
        l.checks.push_back(fail(host, "input-differs",
                                "input " + path + " has sha256 " + hash.substr(0, 12) +
                                    " while the other hosts have " + common.substr(0, 12)));
  }
  if (!t.seeds) {
    l.checks.push_back(fail("seeds", "no-seeds", "not declared in the task",
                            "add \"seeds\" (an empty object when the task uses no randomness)"));
  } else {
    std::vector<std::string> kv;
    for (const auto& [k, v] : *t.seeds) kv.push_back(k + "=" + v);
    l.checks.push_back(pass("seeds", "recorded: " + (kv.empty() ? "none used" : join(kv, ", "))));
  }
}

Level judge_reproducible(const Task& t, const Evidence& e) {
  Level l{"reproducible", true, {}};
  std::vector<const RunRecord*> runs;
  for (const auto& r : e.runs)
    if (is_main_run(r)) runs.push_back(&r);
  for (const auto& [name, tol] : t.metrics) l.checks.push_back(metric_check(name, tol, runs));
  for (const auto& path : t.files) l.checks.push_back(file_check(path, runs));
  version_checks(e, l);
  input_checks(t, e, l);
  return l;
}

void resume_check(const Task& t, const Evidence& e, Level& l) {
  if (!t.resume) return;
  const RunRecord* resume = nullptr;
  std::vector<const RunRecord*> cluster;
  for (const auto& r : e.runs) {
    if (r.kind == "resume") resume = &r;
    if (r.kind == "cluster") cluster.push_back(&r);
  }
  if (!resume) {
    l.checks.push_back(fail("resume", "resume-not-run",
                            "the checkpoint/resume step did not run (the cluster runs failed "
                            "first)"));
    return;
  }
  Check ran = run_check(*resume);
  if (!ran.ok) {
    l.checks.push_back(fail("resume", "resume-failed", "step failed: " + ran.what, ran.more));
    return;
  }
  std::vector<std::string> bad;
  for (const auto& [name, tol] : t.metrics) {
    std::vector<const RunRecord*> pair = {cluster.empty() ? resume : cluster.front(), resume};
    Check c = metric_check(name, tol, pair);
    if (!c.ok) bad.push_back(c.text());
  }
  if (bad.empty())
    l.checks.push_back(pass("resume",
                            "resumed from a checkpoint, exited 0 on every rank and "
                            "agrees with the cluster on all " +
                                std::to_string(t.metrics.size()) + " metric(s)"));
  else
    l.checks.push_back(fail("resume", "resume-differs",
                            "resumed result differs from the cluster's: " + join(bad, "; ")));
}

Level judge_deliverable(const Task& t, const Evidence& e) {
  Level l{"deliverable", true, {}};
  for (const auto& r : e.runs) {
    if (!r.manifest) {
      l.checks.push_back(fail(r.name, "no-manifest", "no manifest.json was written"));
      continue;
    }
    auto missing = missing_manifest_fields(*r.manifest, r.hosts);
    if (missing.empty())
      l.checks.push_back(pass(r.name, std::string("manifest complete (command, commit, ") +
                                          (r.kind == "hpc" ? "Slurm job" : "hostfile sha256") +
                                          ", environment)"));
    else
      l.checks.push_back(
          fail(r.name, "manifest-incomplete", "manifest field " + join(missing, ", ")));
  }
  for (const auto& path : t.inputs) {
    auto it = e.inputs.find(path);
    if (it == e.inputs.end()) {
      l.checks.push_back(fail(path, "input-not-hashed", "not hashed"));
      continue;
    }
    bool all = true;
    for (const auto& [host, hash] : it->second)
      if (hash.empty())
        all = false,
        l.checks.push_back(fail(host, "input-missing", "input " + path + " is missing"));
    if (all)
      l.checks.push_back(pass(path, "hashed on every host (sha256 " +
                                        it->second.begin()->second.substr(0, 12) + "...)"));
  }
  resume_check(t, e, l);
  return l;
}

Problem as_problem(const Check& c) {
  return {c.subject, c.kind, c.what, c.more, Severity::error, ExitCode::failure};
}

}  // namespace

Verdict judge(const Task& task, const Evidence& evidence) {
  Verdict v;
  v.levels = {judge_runs(evidence), judge_reproducible(task, evidence),
              judge_deliverable(task, evidence)};
  const int codes[3] = {kExitRuns, kExitReproducible, kExitDeliverable};
  for (size_t i = 0; i < v.levels.size(); ++i) {
    v.levels[i].passed = std::ranges::all_of(v.levels[i].checks, &Check::ok);
    if (!v.levels[i].passed && v.exit_code == 0) v.exit_code = codes[i];
    if (v.levels[i].passed && v.exit_code == 0) v.reached = v.levels[i].name;
  }
  return v;
}

std::string Check::text() const {
  return describe(as_problem(*this));
}

std::vector<Problem> problems_of(const Verdict& verdict) {
  std::vector<Problem> out;
  for (const auto& l : verdict.levels)
    for (const auto& c : l.checks)
      if (!c.ok) out.push_back(as_problem(c));
  return out;
}

}  // namespace distkit::accept
