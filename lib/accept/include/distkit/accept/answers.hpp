// Reading what the ranks and the helper scripts printed (pure):
// - the task's metrics: a JSON object, either the last line of rank 0's
//   output that is one, or the metrics file's text;
// - the host probe's answer (templates/accept_probe.sh): key=value version
//   lines and "input <sha256|-> <path>" lines;
// - the collection's answer (templates/accept_collect.sh): "file <sha256|->
//   <path>" lines and the metrics file between marker lines.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "distkit/accept/compare.hpp"

namespace distkit::accept {

struct ParsedMetrics {
  std::map<std::string, MetricValue> values;
  std::string error;  // non-empty: why there are no metrics
};

// A JSON object's members: numbers and strings as they are, booleans as
// "true"/"false"; nested values and null are skipped.
ParsedMetrics metrics_from_json(std::string_view text);
// The last line of `log` that parses as a JSON object.
ParsedMetrics metrics_from_log(std::string_view log);

struct ProbeAnswer {
  std::map<std::string, std::string> versions;  // os, python, mlx, distkit
  std::map<std::string, std::string> inputs;    // path -> sha256 ("" = missing)
};
ProbeAnswer parse_probe_answer(std::string_view out);

struct CollectAnswer {
  std::map<std::string, std::string> files;  // path -> sha256 ("" = missing)
  std::optional<std::string> metrics_text;   // the metrics file, when found
};
CollectAnswer parse_collect_answer(std::string_view out);

}  // namespace distkit::accept
