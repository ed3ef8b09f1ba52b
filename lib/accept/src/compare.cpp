// Metric comparison (contract in compare.hpp).
#include "distkit/accept/compare.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace distkit::accept {

MetricValue MetricValue::of(double d) {
  return {.is_number = true, .number = d, .text = format_number(d)};
}

MetricValue MetricValue::of(std::string s) {
  return {.text = std::move(s)};
}

std::string format_number(double d) {
  if (std::fabs(d) < 1e15 && d == std::trunc(d)) return fmt::format("{:.0f}", d);
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    text = fmt::format("{:.{}g}", d, precision);
    if (std::strtod(text.c_str(), nullptr) == d) break;
  }
  return text;
}

std::string format_short(double d) {
  return fmt::format("{:.3g}", d);
}

std::string describe_tolerance(const Tolerance& t) {
  if (t.exact) return "exact";
  return "abs " + format_number(t.abs) + ", rel " + format_number(t.rel);
}

namespace {

std::string quoted(const std::string& s) {
  std::string cut = s.size() > 40 ? s.substr(0, 37) + "..." : s;
  return "\"" + cut + "\"";
}

Agreement exact(const std::vector<Sample>& samples) {
  const Sample& ref = samples.front();
  for (const auto& s : samples)
    if (s.value->text != ref.value->text)
      return {false, "differs between runs (must be exact): " + ref.run + " " +
                         quoted(ref.value->text) + " vs " + s.run + " " + quoted(s.value->text)};
  return {true,
          quoted(ref.value->text) + " in all " + std::to_string(samples.size()) + " runs (exact)"};
}

Agreement numeric(const Tolerance& tol, const std::vector<Sample>& samples) {
  const Sample* lo = &samples.front();
  const Sample* hi = lo;
  double magnitude = 0.0;
  for (const auto& s : samples) {
    if (s.value->number < lo->value->number) lo = &s;
    if (s.value->number > hi->value->number) hi = &s;
    magnitude = std::max(magnitude, std::fabs(s.value->number));
  }
  const double spread = hi->value->number - lo->value->number;
  const double allowed = std::max(tol.abs, tol.rel * magnitude);
  std::string found =
      "spread " + format_short(spread) + " across " + std::to_string(samples.size()) + " runs";
  std::string limit =
      " the tolerance " + format_short(allowed) + " (" + describe_tolerance(tol) + ")";
  if (spread <= allowed) return {true, found + " within" + limit};
  return {false, found + " exceeds" + limit + "; min " + lo->value->text + " in " + lo->run +
                     ", max " + hi->value->text + " in " + hi->run};
}

}  // namespace

Agreement compare_metric(const Tolerance& tol, const std::vector<Sample>& samples) {
  if (samples.empty()) return {false, "no run reported it"};
  for (const auto& s : samples)
    if (!s.value) return {false, "missing from the metrics of " + s.run};
  if (tol.exact) return exact(samples);
  for (const auto& s : samples)
    if (!s.value->is_number)
      return {false, s.run + " reported " + quoted(s.value->text) +
                         ", not a number; declare it \"exact\" to compare strings"};
  return numeric(tol, samples);
}

}  // namespace distkit::accept
