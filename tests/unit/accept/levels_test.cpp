// The three levels judged from evidence: each failure names what failed,
// and the exit code is the lowest level not reached.
#include "distkit/accept/levels.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "evidence_fixture.hpp"

using namespace distkit::accept;
using namespace distkit::accept::test;

namespace {
const Level& level(const Verdict& v, const std::string& name) {
  for (const auto& l : v.levels)
    if (l.name == name) return l;
  throw std::logic_error("no level " + name);
}
std::vector<std::string> failures(const Level& l) {
  std::vector<std::string> out;
  for (const auto& c : l.checks)
    if (!c.ok) out.push_back(c.text());
  return out;
}
}  // namespace

TEST_CASE("agreeing runs on identical hosts reach all three levels", "[accept][levels]") {
  Verdict v = judge(fixture_task(), fixture_evidence());
  CHECK(v.exit_code == 0);
  CHECK(v.reached == "deliverable");
  for (const auto& l : v.levels) CHECK(failures(l).empty());
  CHECK(level(v, "runs").checks.front().text() ==
        "baseline-1: 4 rank(s) on 127.0.0.1 exited 0 in 0.2 s; logs in /w/baseline-1");
}

TEST_CASE("a rank exiting non-zero fails runs (exit 3) naming the run, rank and host",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[2].exit_code = 3;
  e.runs[2].ranks[1] = {1, "h2", "exited 3", false};
  Verdict v = judge(fixture_task(), e);
  CHECK(v.exit_code == kExitRuns);
  CHECK(v.reached.empty());
  CHECK(failures(level(v, "runs")) ==
        std::vector<std::string>{"cluster-1: rank 1 on h2 exited 3; logs in /w/cluster-1"});
}

TEST_CASE("a run distlaunch could not start fails runs with distlaunch's reason",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[3].exit_code = 1;
  e.runs[3].error = "distlaunch: hosts: 1 of 4 host(s) unreachable; fix them or leave them out";
  e.runs[3].ranks.clear();
  CHECK(failures(level(judge(fixture_task(), e), "runs")) ==
        std::vector<std::string>{"cluster-2: did not run: distlaunch: hosts: 1 of 4 host(s) "
                                 "unreachable; fix them or leave them out; logs in /w/cluster-2"});
}

TEST_CASE("a metric spread past its tolerance fails reproducible (exit 4) with the spread",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[3].metrics["loss"] = MetricValue::of(0.501);
  Verdict v = judge(fixture_task(), e);
  CHECK(v.exit_code == kExitReproducible);
  CHECK(v.reached == "runs");
  CHECK(failures(level(v, "reproducible")) ==
        std::vector<std::string>{"loss: spread 0.001 across 4 runs exceeds the tolerance 5.01e-10 "
                                 "(abs 0, rel 1e-09); min 0.5 in baseline-1, max 0.501 in "
                                 "cluster-2"});
}

TEST_CASE("a host with a different version string fails reproducible naming the host",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.versions[1].values["python"] = "Python 3.99.0";
  CHECK(failures(level(judge(fixture_task(), e), "reproducible")) ==
        std::vector<std::string>{"h2: python \"Python 3.99.0\" while the other hosts have "
                                 "\"Python 3.11.2\""});
}

TEST_CASE("differing output files, input hashes or undeclared seeds fail reproducible",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[0].file_hashes["{run_dir}/data.csv"] = "ffff";
  e.inputs["in.txt"]["h3"] = "bbbbbbbbbbbbbbbb";
  Task t = fixture_task();
  t.seeds.reset();
  CHECK(failures(level(judge(t, e), "reproducible")) ==
        std::vector<std::string>{
            "{run_dir}/data.csv: sha256 differs between runs (must be exact): baseline-1 "
            "\"ffff\" vs baseline-2 \"69756913\"",
            "h3: input in.txt has sha256 bbbbbbbbbbbb while the other hosts have aaaa",
            "seeds: not declared in the task; add \"seeds\" (an empty object when the task uses "
            "no randomness)"});
}

TEST_CASE("a manifest without the commit fails deliverable (exit 5) naming the field",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[1].manifest = distkit::test::read_data("accept/manifest_no_commit.json");
  Verdict v = judge(fixture_task(), e);
  CHECK(v.exit_code == kExitDeliverable);
  CHECK(v.reached == "reproducible");
  CHECK(failures(level(v, "deliverable")) ==
        std::vector<std::string>{"baseline-2: manifest field hosts.127.0.0.1.git_commit_of_cwd "
                                 "missing (the working directory is not a git repository there)"});
}

TEST_CASE("every missing manifest field is named", "[accept][levels]") {
  CHECK(missing_manifest_fields("{}", {"h1"}) ==
        std::vector<std::string>{
            "command missing", "hostfile.sha256 missing (the job was not started from a hostfile)",
            "hosts.h1 missing (no facts recorded for that host)", "ranks missing", "start missing",
            "end missing"});
  CHECK(missing_manifest_fields("not json", {}) ==
        std::vector<std::string>{"manifest.json is not a JSON object"});
  CHECK(missing_manifest_fields(distkit::test::read_data("accept/manifest_complete.json"),
                                {"127.0.0.1"})
            .empty());
}

TEST_CASE("a Slurm job's manifest names its allocation instead of a hostfile", "[accept][levels]") {
  auto m = nlohmann::json::parse(distkit::test::read_data("accept/manifest_complete.json"));
  m.erase("hostfile");
  CHECK(missing_manifest_fields(m.dump(), {"127.0.0.1"}) ==
        std::vector<std::string>{
            "hostfile.sha256 missing (the job was not started from a hostfile)"});
  m["slurm"] = {{"job_id", "12"}, {"steps", {{"127.0.0.1", "12.0"}}}};
  CHECK(missing_manifest_fields(m.dump(), {"127.0.0.1"}).empty());
}

TEST_CASE("HPC runs count in every level and a differing result fails reproducible",
          "[accept][levels]") {
  Evidence e = fixture_evidence();
  RunRecord hpc = fixture_run("hpc-1", "hpc", 0.5);
  hpc.slurm_job_id = "12";
  e.runs.push_back(hpc);
  Verdict v = judge(fixture_task(), e);
  CHECK(v.exit_code == 0);
  CHECK(std::find_if(
            level(v, "runs").checks.begin(), level(v, "runs").checks.end(), [](const Check& c) {
              return c.text() ==
                     "hpc-1: 4 rank(s) on 127.0.0.1 (Slurm job 12) exited 0 in 0.2 s; logs "
                     "in "
                     "/w/hpc-1";
            }) != level(v, "runs").checks.end());
  e.runs.back().metrics["loss"] = MetricValue::of(0.6);
  v = judge(fixture_task(), e);
  CHECK(v.exit_code == kExitReproducible);
  REQUIRE(failures(level(v, "reproducible")).size() == 1);
  CHECK(failures(level(v, "reproducible")).front().find("hpc-1") != std::string::npos);
}

TEST_CASE("an input missing on a host fails deliverable naming the host", "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.inputs["in.txt"]["h2"] = "";
  CHECK(failures(level(judge(fixture_task(), e), "deliverable")) ==
        std::vector<std::string>{"h2: input in.txt is missing"});
}

TEST_CASE("a declared resume step must run and agree with the cluster", "[accept][levels]") {
  Task t = fixture_task();
  t.resume = ResumeStep{{"linreg", "--resume-from", "{from_dir}/ckpt"}};
  Evidence e = fixture_evidence();
  CHECK(failures(level(judge(t, e), "deliverable")) ==
        std::vector<std::string>{"resume: the checkpoint/resume step did not run (the cluster "
                                 "runs failed first)"});
  e.runs.push_back(fixture_run("resume", "resume", 0.5));
  CHECK(judge(t, e).exit_code == 0);
  e.runs.back().metrics["loss"] = MetricValue::of(0.75);
  CHECK(failures(level(judge(t, e), "deliverable")) ==
        std::vector<std::string>{"resume: resumed result differs from the cluster's: loss: spread "
                                 "0.25 across 2 runs exceeds the tolerance 7.5e-10 (abs 0, rel "
                                 "1e-09); min 0.5 in cluster-1, max 0.75 in resume"});
  e.runs.back().exit_code = 1;
  e.runs.back().ranks[0] = {0, "127.0.0.1", "exited 1", false};
  CHECK(failures(level(judge(t, e), "deliverable")) ==
        std::vector<std::string>{"resume: step failed: rank 0 on 127.0.0.1 exited 1; logs in "
                                 "/w/resume"});
}

TEST_CASE("the lowest failing level decides the exit code", "[accept][levels]") {
  Evidence e = fixture_evidence();
  e.runs[0].exit_code = 1;                // runs
  e.versions[0].values["os"] = "Darwin";  // reproducible
  e.runs[1].manifest = "{}";              // deliverable
  Verdict v = judge(fixture_task(), e);
  CHECK(v.exit_code == kExitRuns);
  CHECK_FALSE(level(v, "reproducible").passed);
  CHECK_FALSE(level(v, "deliverable").passed);
}
