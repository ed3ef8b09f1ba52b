// The task declaration (task.json): what distaccept runs and how it judges
// the results. Pure: parsed from text, no I/O. The schema is documented in
// man/distaccept.1.md (TASK FILE); every key is checked, unknown keys get a
// "did you mean", and the first problem is thrown as one UsageError line
// naming the file and the JSON path (`metrics.loss.rel: must be a number
// >= 0`).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace distkit::accept {

// How a metric is compared. Numbers agree when |a - b| <= max(abs, rel *
// max(|a|, |b|)); `exact` metrics (strings, hashes, counts) must be equal.
struct Tolerance {
  bool exact = false;
  double abs = 0.0;
  double rel = 0.0;
  bool operator==(const Tolerance&) const = default;
};

// The optional checkpoint-and-resume step: run after the cluster runs, from
// the first cluster repetition's directory ({from_dir}); it must exit 0 on
// every rank and its metrics must agree with the cluster's.
struct ResumeStep {
  std::vector<std::string> command;
};

struct Task {
  std::string name;                          // for reports (default: file stem)
  std::vector<std::string> command;          // words; placeholders {run_dir} {from_dir}
  std::optional<std::string> cwd;            // on every host; default: distaccept's cwd
  std::map<std::string, std::string> env;    // given to every rank
  int repetitions = 2;                       // K, each for baseline and cluster
  int ranks_per_host = 1;                    // cluster -n; baseline runs hosts*n locally
  std::optional<std::string> metrics_file;   // else rank 0's last JSON-object stdout line
  std::map<std::string, Tolerance> metrics;  // what is compared
  std::vector<std::string> files;            // hashed on rank 0's host, must match exactly
  std::optional<std::map<std::string, std::string>> seeds;  // recorded; absent = undeclared
  std::vector<std::string> inputs;                          // hashed on every host, recorded
  std::optional<ResumeStep> resume;
  double timeout_s = 600;  // per run
};

// Parses task.json text. `subject` names the file in errors. Throws
// UsageError (exit 2) on invalid JSON, wrong types, unknown keys, missing
// `command` or `metrics`, out-of-range numbers.
Task parse_task(std::string_view text, std::string_view subject);

// Replaces {run_dir} and {from_dir} in every word (other text unchanged).
std::vector<std::string> expand_words(const std::vector<std::string>& words,
                                      const std::string& run_dir, const std::string& from_dir);

}  // namespace distkit::accept
