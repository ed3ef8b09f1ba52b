// The report: the text a person reads and the JSON a script reads carry the
// same verdict, checks and evidence.
#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "distkit/accept/report.hpp"
#include "evidence_fixture.hpp"

using namespace distkit::accept;
using namespace distkit::accept::test;

TEST_CASE("the text report lists each level with its checks and ends with the verdict",
          "[accept][report]") {
  Task t = fixture_task();
  Evidence e = fixture_evidence();
  e.runs[3].metrics["loss"] = MetricValue::of(0.6);
  Verdict v = judge(t, e);
  std::string text = render_text({t, "task.json", "/w", e, v}, false);
  CHECK(text.find("distaccept: lin (task.json)\n  baseline: 2 run(s) of 4 rank(s) on 127.0.0.1\n"
                  "  cluster: 2 run(s) of 4 rank(s) on 127.0.0.1\n  records: /w\n\nruns          "
                  "PASS\n  ok    baseline-1: ") == 0);
  CHECK(text.find("\nreproducible  FAIL\n  FAIL  loss: spread 0.1 across 4 runs exceeds") !=
        std::string::npos);
  CHECK(text.find("\ndeliverable   PASS\n") != std::string::npos);
  std::string tail = "\n\nnot reproducible (reached: runs); exit 4\n";
  CHECK(text.substr(text.size() - tail.size()) == tail);
  CHECK(text.find("\x1b[") == std::string::npos);
  CHECK(render_text({t, "task.json", "/w", e, v}, true).find("\x1b[") != std::string::npos);
}

TEST_CASE("the JSON report carries the schema, levels, hosts and every run", "[accept][report]") {
  Task t = fixture_task();
  Evidence e = fixture_evidence();
  Verdict v = judge(t, e);
  auto j = nlohmann::json::parse(render_json({t, "task.json", "/w", e, v}));
  CHECK(j["schema"] == "distkit.acceptance/1");
  CHECK(j["exit_code"] == 0);
  CHECK(j["reached"] == "deliverable");
  CHECK(j["levels"].size() == 3);
  CHECK(j["levels"][1]["name"] == "reproducible");
  CHECK(j["levels"][1]["passed"] == true);
  CHECK(j["seeds"]["seed"] == "42");
  CHECK(j["hosts"]["h2"]["python"] == "Python 3.11.2");
  CHECK(j["inputs"]["in.txt"]["h3"] == "aaaa");
  REQUIRE(j["runs"].size() == 4);
  CHECK(j["runs"][2]["name"] == "cluster-1");
  CHECK(j["runs"][2]["metrics"]["loss"] == 0.5);
  CHECK(j["runs"][2]["ranks"][3]["status"] == "exited 0");
  CHECK(j["runs"][2]["manifest"] == "/w/cluster-1/manifest.json");
}

TEST_CASE("the summary names the first level not reached", "[accept][report]") {
  Verdict v;
  v.levels = {{"runs", true, {}}, {"reproducible", true, {}}, {"deliverable", false, {}}};
  v.reached = "reproducible";
  v.exit_code = 5;
  CHECK(summary_line(v) == "not deliverable (reached: reproducible); exit 5");
  v.levels = {{"runs", false, {}}, {"reproducible", false, {}}, {"deliverable", true, {}}};
  v.reached = "";
  v.exit_code = 3;
  CHECK(summary_line(v) == "runs failed (no level reached); exit 3");
  v.levels = {{"runs", true, {}}, {"reproducible", true, {}}, {"deliverable", true, {}}};
  v.exit_code = 0;
  CHECK(summary_line(v) == "all three levels reached: runs, reproducible, deliverable");
}

TEST_CASE("the JSON report lists each failing check as a problem with its subject and kind",
          "[accept][report]") {
  Task t = fixture_task();
  Evidence e = fixture_evidence();
  e.runs[2].exit_code = 3;
  e.runs[2].ranks[1] = {1, "h2", "exited 3", false};
  e.versions[2].values.erase("python");
  Verdict v = judge(t, e);
  auto j = nlohmann::json::parse(render_json({t, "task.json", "/w", e, v}));
  REQUIRE(j["problems"].size() == 2);
  CHECK(j["problems"][0] == nlohmann::json{{"subject", "cluster-1"},
                                           {"kind", "run-failed"},
                                           {"severity", "error"},
                                           {"problem", "rank 1 on h2 exited 3"},
                                           {"remedy", "logs in /w/cluster-1"}});
  CHECK(j["problems"][1]["subject"] == "h3");
  CHECK(j["problems"][1]["kind"] == "not-installed");
  CHECK(j["problems"][1]["problem"] == "no python while the other hosts have \"Python 3.11.2\"");
  // A passing run has none.
  Verdict ok = judge(t, fixture_evidence());
  CHECK(nlohmann::json::parse(render_json({t, "task.json", "/w", fixture_evidence(),
                                           ok}))["problems"] == nlohmann::json::array());
}

TEST_CASE("an interrupted run's report carries the interruption alone", "[accept][report]") {
  Task t = fixture_task();
  Evidence e = fixture_evidence();
  e.runs.resize(3);  // stopped during cluster-2
  e.interrupted =
      distkit::problem_of(distkit::Error("cluster-2", "interrupted; every rank was stopped", "",
                                         distkit::ExitCode::interrupted),
                          "interrupted");
  Verdict v = judge(t, e);
  auto ps = report_problems({t, "task.json", "/w", e, v});
  REQUIRE(ps.size() == 1);
  CHECK(distkit::format_line("distaccept", ps[0]) ==
        "distaccept: error: cluster-2: interrupted; every rank was stopped");
  auto j = nlohmann::json::parse(render_json({t, "task.json", "/w", e, v}));
  CHECK(j["problems"][0]["kind"] == "interrupted");
}
