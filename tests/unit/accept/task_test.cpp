// task.json parsing: the shipped example parses to what it says, every
// problem is one exact line naming the JSON path, placeholders expand.
#include "distkit/accept/task.hpp"
#include "catch.hpp"
#include "distkit/util/error.hpp"
#include "test_data.hpp"

using namespace distkit;
using namespace distkit::accept;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_task(text, "task.json");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("the example task parses with its tolerances, files, seeds and resume step",
          "[accept][task]") {
  Task t = parse_task(test::read_data("accept/linear_regression_task.json"), "task.json");
  CHECK(t.name == "linear_regression");
  CHECK(t.command.front() == "examples/linear_regression/linreg");
  CHECK(t.repetitions == 2);
  CHECK(t.ranks_per_host == 1);
  CHECK(t.metrics.at("final_loss") == Tolerance{false, 0.0, 1e-9});
  CHECK(t.metrics.at("w0") == Tolerance{false, 1e-9, 0.0});
  CHECK(t.metrics.at("steps").exact);
  CHECK(t.files == std::vector<std::string>{"{run_dir}/dataset.csv"});
  REQUIRE(t.seeds);
  CHECK(t.seeds->at("seed") == "42");
  REQUIRE(t.resume);
  CHECK(t.resume->command.back() == "{run_dir}");
  CHECK(t.timeout_s == 120);
  CHECK_FALSE(t.metrics_file);
}

TEST_CASE("defaults: two repetitions, one rank per host, seeds undeclared", "[accept][task]") {
  Task t = parse_task(R"({"command": ["a.out"], "metrics": {"loss": {"abs": 0.5}}})", "t");
  CHECK(t.repetitions == 2);
  CHECK(t.ranks_per_host == 1);
  CHECK_FALSE(t.seeds);
  CHECK_FALSE(t.resume);
  CHECK(t.timeout_s == 600);
}

TEST_CASE("task problems are one line naming the file and the JSON path", "[accept][task]") {
  CHECK(error_of(R"({"command": ["x"], "metrics": {"loss": {"rel": -1}}})") ==
        "task.json: metrics.loss.rel: must be a number \xe2\x89\xa5 0; see TASK FILE in "
        "distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"loss": {"rel": "1e-3"}}})") ==
        "task.json: metrics.loss.rel: must be a number \xe2\x89\xa5 0; see TASK FILE in "
        "distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"loss": {"rell": 1}}})") ==
        "task.json: metrics.loss.rell: unknown key; did you mean \"rel\"?");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"loss": "exactly"}})") ==
        "task.json: metrics.loss: must be \"exact\" or {\"abs\": A, \"rel\": R}; see TASK FILE "
        "in distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"loss": {}}})") ==
        "task.json: metrics.loss: needs \"abs\", \"rel\" or both; see TASK FILE in distaccept(1)");
  CHECK(error_of(R"({"metrics": {"loss": "exact"}})") ==
        "task.json: command: missing; give the command as a list of words");
  CHECK(error_of(R"({"command": ["x"]})") ==
        "task.json: metrics: missing; name the metrics to compare");
  CHECK(error_of(R"({"command": "x y", "metrics": {"a": "exact"}})") ==
        "task.json: command: must be a list of strings; see TASK FILE in distaccept(1)");
  CHECK(error_of(R"({"command": ["x", ""], "metrics": {"a": "exact"}})") ==
        "task.json: command[1]: must not be empty; see TASK FILE in distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"a": "exact"}, "repetitions": 0})") ==
        "task.json: repetitions: must be a whole number between 1 and 100; see TASK FILE in "
        "distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"a": "exact"}, "seeds": {"s": [1]}})") ==
        "task.json: seeds.s: must be a string or a number; see TASK FILE in distaccept(1)");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"a": "exact"}, "repetition": 3})") ==
        "task.json: repetition: unknown key; did you mean \"repetitions\"?");
  CHECK(error_of(R"({"command": ["x"], "metrics": {"a": "exact"}, "resume": {}})") ==
        "task.json: resume: needs \"command\"; see TASK FILE in distaccept(1)");
  // A key with a newline (found by fuzz.accept_task) or a long one: quoted, one line.
  CHECK(error_of(R"({"command": ["x"], "metrics": {"a": "exact"}, "resume": {"comm\nd": []}})") ==
        "task.json: \"resume.comm\\nd\": unknown key; did you mean \"command\"?");
  CHECK(error_of(R"({"command": ["x"], "metrics": {")" + std::string(100, 'm') + R"(": 1}})") ==
        "task.json: \"metrics." + std::string(52, 'm') +
            "...\": must be \"exact\" or {\"abs\": A, \"rel\": R}; see TASK FILE in "
            "distaccept(1)");
  // Past a year it once overflowed the conversion to milliseconds.
  for (const char* bad : {"0", "1e30", "\"600\""})
    CHECK(error_of(std::string(R"({"command": ["x"], "metrics": {"a": "exact"}, "timeout_s": )") +
                   bad + "}") ==
          "task.json: timeout_s: must be a number from 0.001 to 31536000 (a year); see TASK FILE "
          "in distaccept(1)");
  CHECK(error_of("[1, 2]") == "task.json: must be a JSON object; see TASK FILE in distaccept(1)");
  CHECK(error_of("{\n  \"command\": [\"x\"],,\n}") ==
        "task.json: invalid JSON at line 2, column 20; fix the JSON syntax there");
}

TEST_CASE("placeholders expand in every word, repeatedly, and nothing else changes",
          "[accept][task]") {
  CHECK(expand_words({"--out", "{run_dir}/m.json", "{from_dir}/{run_dir}", "{other}"}, "/w/c-1",
                     "/w/c-0") ==
        std::vector<std::string>{"--out", "/w/c-1/m.json", "/w/c-0//w/c-1", "{other}"});
}
