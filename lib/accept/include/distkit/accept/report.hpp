// The acceptance report: a human text (coloured only when asked, i.e. on a
// TTY) and the JSON for scripts ("schema": "distkit.acceptance/1", fields
// documented in distaccept(1) under JSON OUTPUT). Pure renderers.
#pragma once

#include <string>

#include "distkit/accept/evidence.hpp"
#include "distkit/accept/levels.hpp"
#include "distkit/accept/task.hpp"

namespace distkit::accept {

inline constexpr const char* kReportSchema = "distkit.acceptance/1";

struct ReportInputs {
  const Task& task;
  std::string task_path;
  std::string work_dir;
  const Evidence& evidence;
  const Verdict& verdict;
};

// What went wrong: the interruption alone when a signal stopped the run
// (its levels judge what ran), else the failing checks (problems_of).
std::vector<Problem> report_problems(const ReportInputs& in);

std::string render_text(const ReportInputs& in, bool color);
std::string render_json(const ReportInputs& in);

// The sentence under the levels: "all three levels reached" or
// "not reproducible (reached: runs); exit 4".
std::string summary_line(const Verdict& v);

}  // namespace distkit::accept
