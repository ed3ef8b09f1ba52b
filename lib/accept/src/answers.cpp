// Parsing ranks' and helper scripts' output (contract in answers.hpp).
#include "distkit/accept/answers.hpp"

#include <nlohmann/json.hpp>
#include <vector>

#include "distkit/util/strings.hpp"

namespace distkit::accept {

namespace {

using json = nlohmann::json;

// "<word> <hash|-> <path>": the path may hold spaces.
bool hash_line(std::string_view line, std::string_view word, std::string& path, std::string& hash) {
  if (line.substr(0, word.size() + 1) != std::string(word) + " ") return false;
  std::string_view rest = line.substr(word.size() + 1);
  auto sp = rest.find(' ');
  if (sp == std::string_view::npos) return false;
  hash = std::string(rest.substr(0, sp));
  path = std::string(rest.substr(sp + 1));
  if (hash == "-") hash.clear();
  return true;
}

}  // namespace

ParsedMetrics metrics_from_json(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return {{}, "not a JSON object"};
  ParsedMetrics p;
  for (const auto& [k, v] : j.items()) {
    if (v.is_number())
      p.values[k] = MetricValue::of(v.get<double>());
    else if (v.is_string())
      p.values[k] = MetricValue::of(v.get<std::string>());
    else if (v.is_boolean())
      p.values[k] = MetricValue::of(std::string(v.get<bool>() ? "true" : "false"));
  }
  return p;
}

ParsedMetrics metrics_from_log(std::string_view log) {
  auto lines = split_lines(log);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    std::string_view line = trim(*it);
    if (line.empty() || line.front() != '{') continue;
    ParsedMetrics p = metrics_from_json(line);
    if (p.error.empty()) return p;
  }
  return {{}, "rank 0 printed no JSON object line"};
}

ProbeAnswer parse_probe_answer(std::string_view out) {
  ProbeAnswer a;
  for (auto line : split_lines(out)) {
    std::string path, hash;
    if (hash_line(line, "input", path, hash)) {
      a.inputs[path] = hash;
      continue;
    }
    auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    std::string key(line.substr(0, eq));
    if (key == "os" || key == "python" || key == "mlx" || key == "distkit")
      a.versions[key] = std::string(trim(line.substr(eq + 1)));
  }
  return a;
}

CollectAnswer parse_collect_answer(std::string_view out) {
  CollectAnswer a;
  bool in_metrics = false;
  std::string metrics;
  for (auto line : split_lines(out)) {
    if (in_metrics) {
      if (line == "metrics-file-end") {
        in_metrics = false;
        a.metrics_text = metrics;
      } else {
        metrics.append(line).push_back('\n');
      }
      continue;
    }
    std::string path, hash;
    if (line == "metrics-file-begin")
      in_metrics = true;
    else if (hash_line(line, "file", path, hash))
      a.files[path] = hash;
  }
  return a;
}

}  // namespace distkit::accept
