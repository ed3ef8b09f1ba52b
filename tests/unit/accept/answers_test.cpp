// Reading rank 0's metrics line, the metrics file, and the helper scripts'
// answers.
#include "distkit/accept/answers.hpp"
#include "catch.hpp"

using namespace distkit::accept;

TEST_CASE("the last JSON object line of rank 0's output is the metrics", "[accept][answers]") {
  ParsedMetrics m = metrics_from_log(
      "starting\n{\"loss\": 9}\nstep 10\n  {\"loss\": 0.25, \"name\": \"lin\", \"ok\": true, "
      "\"nested\": {\"a\": 1}, \"none\": null}\nbye {not json}\n{broken\n");
  REQUIRE(m.error.empty());
  CHECK(m.values.size() == 3);
  CHECK(m.values.at("loss").is_number);
  CHECK(m.values.at("loss").number == 0.25);
  CHECK(m.values.at("name").text == "lin");
  CHECK(m.values.at("ok").text == "true");
}

TEST_CASE("output without a JSON object line gives a reason", "[accept][answers]") {
  CHECK(metrics_from_log("hello\n[1,2]\n").error == "rank 0 printed no JSON object line");
  CHECK(metrics_from_json("[1]").error == "not a JSON object");
}

TEST_CASE("the probe answer holds versions and input hashes, '-' for a missing input",
          "[accept][answers]") {
  ProbeAnswer a = parse_probe_answer(
      "os=macOS 26.2 (25C56) arm64\npython=Python 3.12.4\nmlx=0.29.1\n"
      "distkit=distlaunch 0.1.0\njunk line\ninput 1a2b data/train set.csv\ninput - data/b.csv\n");
  CHECK(a.versions.at("os") == "macOS 26.2 (25C56) arm64");
  CHECK(a.versions.at("python") == "Python 3.12.4");
  CHECK(a.versions.at("mlx") == "0.29.1");
  CHECK(a.versions.at("distkit") == "distlaunch 0.1.0");
  CHECK(a.inputs.at("data/train set.csv") == "1a2b");
  CHECK(a.inputs.at("data/b.csv").empty());
}

TEST_CASE("the collect answer holds file hashes and the metrics file text", "[accept][answers]") {
  CollectAnswer a = parse_collect_answer(
      "file abcd /w/cluster-1/out.bin\nfile - /w/cluster-1/gone\nmetrics-file-begin\n"
      "{\n  \"loss\": 1\n}\n\nmetrics-file-end\n");
  CHECK(a.files.at("/w/cluster-1/out.bin") == "abcd");
  CHECK(a.files.at("/w/cluster-1/gone").empty());
  REQUIRE(a.metrics_text);
  CHECK(metrics_from_json(*a.metrics_text).values.at("loss").number == 1);
  CHECK_FALSE(parse_collect_answer("metrics-file-missing\n").metrics_text);
}
