// Rendering the acceptance report (contract in report.hpp).
#include "distkit/accept/report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "distkit/util/strings.hpp"
#include "distkit/util/terminal.hpp"

namespace distkit::accept {

namespace {

using nlohmann::ordered_json;

std::string runs_line(const Evidence& e, const char* kind) {
  int n = 0;
  std::string where;
  int world = 0;
  std::string job;
  for (const auto& r : e.runs)
    if (r.kind == kind) {
      ++n;
      where = join(r.hosts, ",");
      world = r.world_size;
      if (!r.slurm_job_id.empty()) job = " (Slurm job " + r.slurm_job_id + ")";
    }
  if (n == 0) return std::string(kind) + ": none";
  return std::string(kind) + ": " + std::to_string(n) + " run(s) of " + std::to_string(world) +
         " rank(s) on " + where + job;
}

ordered_json metric_json(const MetricValue& v) {
  return v.is_number ? ordered_json(v.number) : ordered_json(v.text);
}

ordered_json run_json(const RunRecord& r) {
  ordered_json j;
  j["name"] = r.name;
  j["kind"] = r.kind;
  j["dir"] = r.dir;
  j["hosts"] = r.hosts;
  j["world_size"] = r.world_size;
  j["exit_code"] = r.exit_code;
  if (!r.error.empty()) j["error"] = r.error;
  j["duration_s"] = r.duration_s;
  if (!r.slurm_job_id.empty()) j["slurm_job_id"] = r.slurm_job_id;
  j["ranks"] = ordered_json::array();
  for (const auto& k : r.ranks)
    j["ranks"].push_back({{"rank", k.rank}, {"host", k.host}, {"status", k.status}, {"ok", k.ok}});
  j["metrics"] = ordered_json::object();
  for (const auto& [name, v] : r.metrics) j["metrics"][name] = metric_json(v);
  if (!r.metrics_error.empty()) j["metrics_error"] = r.metrics_error;
  j["files"] = ordered_json::object();
  for (const auto& [path, hash] : r.file_hashes)
    j["files"][path] = hash.empty() ? ordered_json(nullptr) : ordered_json(hash);
  j["manifest"] =
      r.dir.empty() || !r.manifest ? ordered_json(nullptr) : ordered_json(r.dir + "/manifest.json");
  return j;
}

}  // namespace

std::string summary_line(const Verdict& v) {
  if (v.exit_code == 0) return "all three levels reached: runs, reproducible, deliverable";
  auto first_failed = std::ranges::find(v.levels, false, &Level::passed);
  std::string failed = first_failed == v.levels.end() ? "" : first_failed->name;
  if (v.reached.empty())
    return failed + " failed (no level reached); exit " + std::to_string(v.exit_code);
  return "not " + failed + " (reached: " + v.reached + "); exit " + std::to_string(v.exit_code);
}

std::vector<Problem> report_problems(const ReportInputs& in) {
  if (in.evidence.interrupted) return {*in.evidence.interrupted};
  return problems_of(in.verdict);
}

std::string render_text(const ReportInputs& in, bool color) {
  std::string out = "distaccept: " + in.task.name + " (" + in.task_path + ")\n";
  out += "  " + runs_line(in.evidence, "baseline") + "\n";
  out += "  " + runs_line(in.evidence, "cluster") + "\n";
  if (std::ranges::find(in.evidence.runs, "hpc", &RunRecord::kind) != in.evidence.runs.end())
    out += "  " + runs_line(in.evidence, "hpc") + "\n";
  out += "  records: " + in.work_dir + "\n";
  for (const auto& l : in.verdict.levels) {
    std::string mark =
        l.passed ? colorize("PASS", Color::green, color) : colorize("FAIL", Color::red, color);
    std::string name = l.name;
    name.resize(14, ' ');
    out += "\n" + colorize(name, Color::bold, color) + mark + "\n";
    for (const auto& c : l.checks)
      out += std::string("  ") + (c.ok ? "ok    " : colorize("FAIL  ", Color::red, color)) +
             c.text() + "\n";
  }
  out += "\n" + summary_line(in.verdict) + "\n";
  return out;
}

std::string render_json(const ReportInputs& in) {
  ordered_json j;
  j["schema"] = kReportSchema;
  j["task"] = {{"name", in.task.name}, {"path", in.task_path}};
  j["work_dir"] = in.work_dir;
  j["exit_code"] = in.verdict.exit_code;
  j["reached"] =
      in.verdict.reached.empty() ? ordered_json(nullptr) : ordered_json(in.verdict.reached);
  j["levels"] = ordered_json::array();
  for (const auto& l : in.verdict.levels) {
    ordered_json lj{{"name", l.name}, {"passed", l.passed}, {"checks", ordered_json::array()}};
    for (const auto& c : l.checks) lj["checks"].push_back({{"ok", c.ok}, {"text", c.text()}});
    j["levels"].push_back(lj);
  }
  j["seeds"] = in.task.seeds.value_or(std::map<std::string, std::string>{});
  j["hosts"] = ordered_json::object();
  for (const auto& h : in.evidence.versions) j["hosts"][h.host] = h.values;
  j["inputs"] = ordered_json::object();
  for (const auto& [path, by_host] : in.evidence.inputs) {
    j["inputs"][path] = ordered_json::object();
    for (const auto& [host, hash] : by_host)
      j["inputs"][path][host] = hash.empty() ? ordered_json(nullptr) : ordered_json(hash);
  }
  j["runs"] = ordered_json::array();
  for (const auto& r : in.evidence.runs) j["runs"].push_back(run_json(r));
  j["problems"] = to_json(report_problems(in));
  return j.dump(2) + "\n";
}

}  // namespace distkit::accept
