// Comparing one metric across runs against its declared tolerance. Pure.
//
// Contract: the spread of a numeric metric is max - min over every run
// (baseline and cluster repetitions alike); it passes when
//   spread <= max(abs, rel * max|v|)
// i.e. when the two most distant runs agree within the tolerance. Exact
// metrics (strings, or numbers declared "exact") pass when every run gives
// the same value. A run without the metric fails it, naming the run.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distkit/accept/task.hpp"

namespace distkit::accept {

// A value a run reported: a number, or a string (hashes, labels).
struct MetricValue {
  bool is_number = false;
  double number = 0.0;
  std::string text;  // the string, or the number as printed in the JSON
  static MetricValue of(double d);
  static MetricValue of(std::string s);
};

struct Sample {
  std::string run;                   // "baseline-1", "cluster-2", "resume"
  std::optional<MetricValue> value;  // nullopt: the run did not report it
};

struct Agreement {
  bool ok = true;
  std::string detail;  // one line: the evidence (spread, tolerance, runs), passing or failing
};

Agreement compare_metric(const Tolerance& tol, const std::vector<Sample>& samples);

// Shortest round-trip text of a double ("0.1", "1.5e-10").
std::string format_number(double d);
// Three significant digits ("3.31e-12"), for spreads and tolerances.
std::string format_short(double d);
// "abs 1e-09, rel 0" / "exact".
std::string describe_tolerance(const Tolerance& t);

}  // namespace distkit::accept
