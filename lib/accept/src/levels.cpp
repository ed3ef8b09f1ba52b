// Judging the three levels from the evidence (contract in levels.hpp). One
// function per level; each check's text is the evidence a reader needs.
#include "distkit/accept/levels.hpp"

#include <algorithm>
#include <set>

#include "distkit/util/strings.hpp"

namespace distkit::accept {

namespace {

bool is_main_run(const RunRecord& r) {
  return r.kind == "baseline" || r.kind == "cluster" || r.kind == "hpc";
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

Check run_check(const RunRecord& r) {
  std::string where = r.dir.empty() ? "" : "; logs in " + r.dir;
  if (!r.error.empty()) return {false, r.name + ": did not run: " + r.error + where};
  std::vector<std::string> bad;
  for (const auto& k : r.ranks)
    if (!k.ok) bad.push_back("rank " + std::to_string(k.rank) + " on " + k.host + " " + k.status);
  if (r.exit_code != 0 || !bad.empty()) {
    std::string why =
        bad.empty() ? "distlaunch exited " + std::to_string(r.exit_code) : join(bad, ", ");
    return {false, r.name + ": " + why + where};
  }
  std::string job = r.slurm_job_id.empty() ? "" : " (Slurm job " + r.slurm_job_id + ")";
  return {true, r.name + ": " + std::to_string(r.world_size) + " rank(s) on " + join(r.hosts, ",") +
                    job + " exited 0 in " + seconds(r.duration_s) + where};
}

Level judge_runs(const Evidence& e) {
  Level l{"runs", true, {}};
  for (const auto& r : e.runs)
    if (is_main_run(r)) l.checks.push_back(run_check(r));
  if (l.checks.empty()) l.checks.push_back({false, "no run was made"});
  return l;
}

std::vector<Sample> samples_of(const std::vector<const RunRecord*>& runs,
                               const std::string& metric) {
  std::vector<Sample> out;
  for (const auto* r : runs) {
    auto it = r->metrics.find(metric);
    Sample s{r->name, std::nullopt};
    if (it != r->metrics.end()) s.value = it->second;
    out.push_back(s);
  }
  return out;
}

Check metric_check(const std::string& name, const Tolerance& tol,
                   const std::vector<const RunRecord*>& runs) {
  for (const auto* r : runs)
    if (!r->metrics_error.empty() && !r->metrics.count(name))
      return {false, name + ": no metrics from " + r->name + " (" + r->metrics_error + ")"};
  Agreement a = compare_metric(name, tol, samples_of(runs, name));
  return {a.ok, a.detail};
}

Check file_check(const std::string& path, const std::vector<const RunRecord*>& runs) {
  std::vector<Sample> samples;
  for (const auto* r : runs) {
    auto it = r->file_hashes.find(path);
    if (it == r->file_hashes.end() || it->second.empty())
      return {false, "file " + path + ": missing after " + r->name};
    samples.push_back({r->name, MetricValue::of(it->second)});
  }
  Tolerance exact;
  exact.exact = true;
  Agreement a = compare_metric("file " + path + " sha256", exact, samples);
  return {a.ok, a.detail};
}

// Hosts whose value differs from the most common one, named.
void version_checks(const Evidence& e, Level& l) {
  if (!e.probe_error.empty()) {
    l.checks.push_back({false, "versions: could not be gathered: " + e.probe_error});
    return;
  }
  for (const char* key : {"os", "python", "mlx", "distkit"}) {
    std::map<std::string, int> count;
    for (const auto& h : e.versions) count[h.values.count(key) ? h.values.at(key) : ""]++;
    auto common = std::max_element(count.begin(), count.end(), [](auto& a, auto& b) {
                    return a.second < b.second;
                  })->first;
    std::vector<std::string> odd;
    for (const auto& h : e.versions) {
      std::string v = h.values.count(key) ? h.values.at(key) : "";
      if (v != common)
        odd.push_back(h.host + " has " + key + " \"" + (v.empty() ? "none" : v) + "\"");
    }
    std::string shown = common.empty() ? "none" : "\"" + common + "\"";
    if (odd.empty())
      l.checks.push_back({true, std::string(key) + ": " + shown + " on all " +
                                    std::to_string(e.versions.size()) + " host(s)"});
    else
      l.checks.push_back({false, std::string(key) + " differs: " + join(odd, ", ") +
                                     " while the other hosts have " + shown});
  }
}

void input_checks(const Task& t, const Evidence& e, Level& l) {
  for (const auto& path : t.inputs) {
    auto it = e.inputs.find(path);
    if (it == e.inputs.end()) continue;  // not gathered: reported by deliverable
    std::set<std::string> distinct;
    for (const auto& [host, hash] : it->second)
      if (!hash.empty()) distinct.insert(hash);
    if (distinct.size() <= 1) continue;
    std::vector<std::string> each;
    for (const auto& [host, hash] : it->second) each.push_back(host + " " + hash.substr(0, 12));
    l.checks.push_back({false, "input " + path + " differs between hosts: " + join(each, ", ")});
  }
  if (!t.seeds) {
    l.checks.push_back({false,
                        "seeds: not declared in the task; add \"seeds\" (an empty object "
                        "when the task uses no randomness)"});
  } else {
    std::vector<std::string> kv;
    for (const auto& [k, v] : *t.seeds) kv.push_back(k + "=" + v);
    l.checks.push_back({true, "seeds recorded: " + (kv.empty() ? "none used" : join(kv, ", "))});
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
    l.checks.push_back({false,
                        "resume: the checkpoint/resume step did not run (the cluster runs "
                        "failed first)"});
    return;
  }
  Check ran = run_check(*resume);
  if (!ran.ok) {
    l.checks.push_back({false, "resume step failed: " + ran.text});
    return;
  }
  std::vector<std::string> bad;
  for (const auto& [name, tol] : t.metrics) {
    std::vector<const RunRecord*> pair = {cluster.empty() ? resume : cluster.front(), resume};
    Check c = metric_check(name, tol, pair);
    if (!c.ok) bad.push_back(c.text);
  }
  if (bad.empty())
    l.checks.push_back({true,
                        "resume: resumed from a checkpoint, exited 0 on every rank and "
                        "agrees with the cluster on all " +
                            std::to_string(t.metrics.size()) + " metric(s)"});
  else
    l.checks.push_back(
        {false, "resume: resumed result differs from the cluster's: " + join(bad, "; ")});
}

Level judge_deliverable(const Task& t, const Evidence& e) {
  Level l{"deliverable", true, {}};
  for (const auto& r : e.runs) {
    if (!r.manifest) {
      l.checks.push_back({false, r.name + ": no manifest.json was written"});
      continue;
    }
    auto missing = missing_manifest_fields(*r.manifest, r.hosts);
    if (missing.empty())
      l.checks.push_back({true, r.name + ": manifest complete (command, commit, " +
                                    (r.kind == "hpc" ? "Slurm job" : "hostfile sha256") +
                                    ", environment)"});
    else
      l.checks.push_back({false, r.name + ": manifest field " + join(missing, ", ")});
  }
  for (const auto& path : t.inputs) {
    auto it = e.inputs.find(path);
    std::vector<std::string> absent;
    if (it == e.inputs.end()) {
      absent.push_back("not hashed");
    } else {
      for (const auto& [host, hash] : it->second)
        if (hash.empty()) absent.push_back("missing on " + host);
    }
    if (absent.empty())
      l.checks.push_back({true, "input " + path + " hashed on every host (sha256 " +
                                    it->second.begin()->second.substr(0, 12) + "...)"});
    else
      l.checks.push_back({false, "input " + path + ": " + join(absent, ", ")});
  }
  resume_check(t, e, l);
  return l;
}

void settle(Level& l) {
  l.passed = std::all_of(l.checks.begin(), l.checks.end(), [](const Check& c) { return c.ok; });
}

}  // namespace

Verdict judge(const Task& task, const Evidence& evidence) {
  Verdict v;
  v.levels = {judge_runs(evidence), judge_reproducible(task, evidence),
              judge_deliverable(task, evidence)};
  const int codes[3] = {kExitRuns, kExitReproducible, kExitDeliverable};
  for (size_t i = 0; i < v.levels.size(); ++i) {
    settle(v.levels[i]);
    if (!v.levels[i].passed && v.exit_code == 0) v.exit_code = codes[i];
    if (v.levels[i].passed && v.exit_code == 0) v.reached = v.levels[i].name;
  }
  return v;
}

}  // namespace distkit::accept
