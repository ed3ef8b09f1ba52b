// Tolerance comparison: spread against max(abs, rel * max|v|), exact
// metrics, missing values, and the texts naming metric, spread and runs.
#include "distkit/accept/compare.hpp"
#include "catch.hpp"

using namespace distkit::accept;

namespace {
std::vector<Sample> numbers(std::initializer_list<double> values) {
  std::vector<Sample> out;
  int i = 0;
  for (double v : values) out.push_back({"run-" + std::to_string(++i), MetricValue::of(v)});
  return out;
}
Tolerance tol(double abs, double rel) {
  return {false, abs, rel};
}
}  // namespace

TEST_CASE("numbers within the absolute tolerance agree", "[accept][compare]") {
  Agreement a = compare_metric(tol(0.01, 0), numbers({1.0, 1.005, 0.998}));
  CHECK(a.ok);
  CHECK(a.detail == "spread 0.007 across 3 runs within the tolerance 0.01 (abs 0.01, rel 0)");
}

TEST_CASE("the relative tolerance scales with the largest magnitude", "[accept][compare]") {
  CHECK(compare_metric(tol(0, 1e-3), numbers({1000.0, 1000.9})).ok);
  CHECK_FALSE(compare_metric(tol(0, 1e-3), numbers({1000.0, 1001.2})).ok);
  // abs and rel: the larger allowance wins.
  CHECK(compare_metric(tol(0.5, 1e-6), numbers({1.0, 1.4})).ok);
  CHECK(compare_metric(tol(0, 0), numbers({2.5, 2.5})).ok);
  CHECK_FALSE(compare_metric(tol(0, 0), numbers({2.5, std::nextafter(2.5, 3.0)})).ok);
}

TEST_CASE("a spread past the tolerance names the spread and both runs", "[accept][compare]") {
  Agreement a = compare_metric(tol(0, 1e-9), numbers({0.5, 0.502, 0.501}));
  CHECK_FALSE(a.ok);
  CHECK(a.detail ==
        "spread 0.002 across 3 runs exceeds the tolerance 5.02e-10 (abs 0, rel "
        "1e-09); min 0.5 in run-1, max 0.502 in run-2");
}

TEST_CASE("exact metrics must be equal in every run", "[accept][compare]") {
  Tolerance exact{true, 0, 0};
  std::vector<Sample> same = {{"a", MetricValue::of(std::string("ab"))},
                              {"b", MetricValue::of(std::string("ab"))}};
  CHECK(compare_metric(exact, same).detail == "\"ab\" in all 2 runs (exact)");
  std::vector<Sample> differ = {{"a", MetricValue::of(std::string("ab"))},
                                {"b", MetricValue::of(std::string("cd"))}};
  Agreement a = compare_metric(exact, differ);
  CHECK_FALSE(a.ok);
  CHECK(a.detail == "differs between runs (must be exact): a \"ab\" vs b \"cd\"");
  CHECK(compare_metric(exact, numbers({300, 300})).detail == "\"300\" in all 2 runs (exact)");
  CHECK_FALSE(compare_metric(exact, numbers({300, 301})).ok);
}

TEST_CASE("a missing value or a string under a numeric tolerance fails naming the run",
          "[accept][compare]") {
  std::vector<Sample> s = numbers({1.0});
  s.push_back({"cluster-2", std::nullopt});
  CHECK(compare_metric(tol(1, 0), s).detail == "missing from the metrics of cluster-2");
  std::vector<Sample> t = numbers({1.0});
  t.push_back({"cluster-1", MetricValue::of(std::string("nan"))});
  CHECK(compare_metric(tol(1, 0), t).detail ==
        "cluster-1 reported \"nan\", not a number; declare it \"exact\" to compare strings");
  CHECK_FALSE(compare_metric(tol(1, 0), {}).ok);
}

TEST_CASE("numbers print as short round-trip text", "[accept][compare]") {
  CHECK(format_number(300) == "300");
  CHECK(format_number(0.1) == "0.1");
  CHECK(format_number(0.0033134583341370063) == "0.0033134583341370063");
  CHECK(format_number(-1.5e-10) == "-1.5e-10");
  CHECK(format_short(3.3134583341370065e-12) == "3.31e-12");
  CHECK(describe_tolerance({false, 1e-9, 0}) == "abs 1e-09, rel 0");
  CHECK(describe_tolerance({true, 0, 0}) == "exact");
}
