// A passing acceptance's evidence, built in code (two baseline and two
// cluster runs with the real manifest from a local run), for the levels and
// report tests to break one piece at a time.
#pragma once

#include "distkit/accept/evidence.hpp"
#include "distkit/accept/task.hpp"
#include "test_data.hpp"

namespace distkit::accept::test {

inline Task fixture_task() {
  Task t;
  t.name = "lin";
  t.command = {"linreg"};
  t.metrics = {{"loss", {false, 0.0, 1e-9}}, {"steps", {true, 0, 0}}};
  t.files = {"{run_dir}/data.csv"};
  t.seeds = std::map<std::string, std::string>{{"seed", "42"}};
  t.inputs = {"in.txt"};
  return t;
}

inline RunRecord fixture_run(const std::string& name, const std::string& kind, double loss) {
  RunRecord r;
  r.name = name;
  r.kind = kind;
  r.dir = "/w/" + name;
  r.hosts = {"127.0.0.1"};
  r.world_size = 4;
  r.exit_code = 0;
  r.duration_s = 0.25;
  for (int k = 0; k < 4; ++k) r.ranks.push_back({k, "127.0.0.1", "exited 0", true});
  r.metrics = {{"loss", MetricValue::of(loss)}, {"steps", MetricValue::of(300)}};
  r.file_hashes = {{"{run_dir}/data.csv", "69756913"}};
  r.manifest = distkit::test::read_data("accept/manifest_complete.json");
  return r;
}

inline Evidence fixture_evidence() {
  Evidence e;
  e.runs = {fixture_run("baseline-1", "baseline", 0.5), fixture_run("baseline-2", "baseline", 0.5),
            fixture_run("cluster-1", "cluster", 0.5), fixture_run("cluster-2", "cluster", 0.5)};
  for (const char* h : {"h1", "h2", "h3"})
    e.versions.push_back({h, {{"os", "Linux 6.1 x86_64"}, {"python", "Python 3.11.2"}}});
  e.inputs["in.txt"] = {{"h1", "aaaa"}, {"h2", "aaaa"}, {"h3", "aaaa"}};
  return e;
}

}  // namespace distkit::accept::test
