// Parsing task.json (contract in task.hpp). One walk over the JSON object;
// each key has its own small reader that throws at the first problem with
// the key's JSON path.
#include "distkit/accept/task.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <nlohmann/json.hpp>

#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::accept {

namespace {

using json = nlohmann::json;

struct Reader {
  std::string subject;

  // The path names the file's own keys: as is when they are plain, quoted
  // (one line, cut short) when one holds a newline, is not ASCII or is long.
  [[noreturn]] void fail(const std::string& path, const std::string& problem,
                         const std::string& remedy = "see TASK FILE in distaccept(1)") const {
    const bool plain =
        path.size() <= 80 && std::ranges::all_of(path, [](char c) { return c >= ' ' && c <= '~'; });
    throw UsageError(subject, (plain ? path : quote(path)) + ": " + problem, remedy);
  }

  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "must be a string");
    return v.get<std::string>();
  }

  double number(const json& v, const std::string& path, double min, const char* bound,
                double max = HUGE_VAL) const {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < min ||
        v.get<double>() > max)
      fail(path, std::string("must be a number ") + bound);
    return v.get<double>();
  }

  int integer(const json& v, const std::string& path, int min, int max) const {
    if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max)
      fail(path,
           "must be a whole number between " + std::to_string(min) + " and " + std::to_string(max));
    return static_cast<int>(v.get<long long>());
  }

  std::vector<std::string> strings(const json& v, const std::string& path, bool non_empty) const {
    if (!v.is_array()) fail(path, "must be a list of strings");
    if (non_empty && v.empty()) fail(path, "must not be empty");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      std::string s = string(v[i], path + "[" + std::to_string(i) + "]");
      if (s.empty()) fail(path + "[" + std::to_string(i) + "]", "must not be empty");
      out.push_back(s);
    }
    return out;
  }

  std::map<std::string, std::string> string_map(const json& v, const std::string& path,
                                                bool allow_numbers) const {
    if (!v.is_object()) fail(path, "must be an object");
    std::map<std::string, std::string> out;
    for (const auto& [k, val] : v.items()) {
      if (allow_numbers && val.is_number())
        out[k] = val.dump();
      else if (val.is_string())
        out[k] = val.get<std::string>();
      else
        fail(path + "." + k, allow_numbers ? "must be a string or a number" : "must be a string");
    }
    return out;
  }

  Tolerance tolerance(const json& v, const std::string& path) const {
    if (v.is_string() && v.get<std::string>() == "exact") return {.exact = true};
    if (!v.is_object()) fail(path, "must be \"exact\" or {\"abs\": A, \"rel\": R}");
    if (v.empty()) fail(path, "needs \"abs\", \"rel\" or both");
    Tolerance t;
    for (const auto& [k, val] : v.items()) {
      if (k == "abs")
        t.abs = number(val, path + ".abs", 0.0, "\xe2\x89\xa5 0");
      else if (k == "rel")
        t.rel = number(val, path + ".rel", 0.0, "\xe2\x89\xa5 0");
      else
        fail(path + "." + k, "unknown key", did_you_mean(k, {"abs", "rel"}, "use abs and rel"));
    }
    return t;
  }

  std::map<std::string, Tolerance> metrics(const json& v) const {
    if (!v.is_object()) fail("metrics", "must be an object of metric name -> tolerance");
    if (v.empty()) fail("metrics", "must name at least one metric");
    std::map<std::string, Tolerance> out;
    for (const auto& [k, val] : v.items()) out[k] = tolerance(val, "metrics." + k);
    return out;
  }

  ResumeStep resume(const json& v) const {
    if (!v.is_object()) fail("resume", "must be an object with \"command\"");
    ResumeStep r;
    for (const auto& [k, val] : v.items()) {
      if (k == "command")
        r.command = strings(val, "resume.command", true);
      else
        fail("resume." + k, "unknown key",
             did_you_mean(k, {"command"}, "resume takes \"command\""));
    }
    if (r.command.empty()) fail("resume", "needs \"command\"");
    return r;
  }

  // Reads the top-level key `k`. The readers are in the schema's order: an
  // unknown key is offered the first of the closest names.
  void key(Task& t, const std::string& k, const json& v) const {
    const std::vector<std::pair<std::string, std::function<void()>>> readers = {
        {"name", [&] { t.name = string(v, k); }},
        {"command", [&] { t.command = strings(v, k, true); }},
        {"cwd", [&] { t.cwd = string(v, k); }},
        {"env", [&] { t.env = string_map(v, k, false); }},
        {"repetitions", [&] { t.repetitions = integer(v, k, 1, 100); }},
        {"ranks_per_host", [&] { t.ranks_per_host = integer(v, k, 1, 1024); }},
        {"metrics_file", [&] { t.metrics_file = string(v, k); }},
        {"metrics", [&] { t.metrics = metrics(v); }},
        {"files", [&] { t.files = strings(v, k, false); }},
        {"seeds", [&] { t.seeds = string_map(v, k, true); }},
        {"inputs", [&] { t.inputs = strings(v, k, false); }},
        {"resume", [&] { t.resume = resume(v); }},
        {"timeout_s",
         [&] { t.timeout_s = number(v, k, 0.001, "from 0.001 to 31536000 (a year)", 31536000); }}};
    std::vector<std::string> names;
    for (const auto& [name, read] : readers) {
      if (name == k) return read();
      names.push_back(name);
    }
    fail(k, "unknown key", did_you_mean(k, names, "see TASK FILE in distaccept(1)"));
  }
};

}  // namespace

Task parse_task(std::string_view text, std::string_view subject) {
  Reader r{std::string(subject)};
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    auto* pe = dynamic_cast<const json::parse_error*>(&e);
    size_t offset = pe && pe->byte > 0 ? pe->byte - 1 : 0;
    throw UsageError(std::string(subject), "invalid JSON at " + line_column(text, offset),
                     "fix the JSON syntax there");
  }
  if (!doc.is_object())
    throw UsageError(std::string(subject), "must be a JSON object",
                     "see TASK FILE in distaccept(1)");
  Task t;
  for (const auto& [k, v] : doc.items()) r.key(t, k, v);
  if (t.command.empty()) r.fail("command", "missing", "give the command as a list of words");
  if (t.metrics.empty()) r.fail("metrics", "missing", "name the metrics to compare");
  return t;
}

std::vector<std::string> expand_words(const std::vector<std::string>& words,
                                      const std::string& run_dir, const std::string& from_dir) {
  std::vector<std::string> out;
  for (std::string w : words) {
    for (const auto& [key, value] :
         {std::pair<std::string, std::string>{"{run_dir}", run_dir}, {"{from_dir}", from_dir}}) {
      for (size_t at = w.find(key); at != std::string::npos; at = w.find(key, at + value.size()))
        w.replace(at, key.size(), value);
    }
    out.push_back(w);
  }
  return out;
}

}  // namespace distkit::accept
