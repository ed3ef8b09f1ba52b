// Other programs the host agent runs (the preflight's version checks, the
// stack tools): PATH searched as execvp searches it, and a run with a
// deadline that kills the program's whole group when it is passed.
#pragma once

#include <string>
#include <vector>

namespace distkit_agent {

// Would execvp find `cmd` (run in `cwd`)? Its path ("" when not): a name
// with a slash is a path; any other is searched in PATH (an empty entry is
// the working directory).
std::string find_command(const std::string& cmd, const std::string& cwd = "");

struct ProgramRun {
  std::string out;        // what it wrote (stdout, and stderr when asked), up to the limit
  bool finished = false;  // it ended before the deadline
  int status = -1;        // its exit status when it exited (-1: killed by a signal)
};

// Runs `argv` in `cwd` ("" here) with stdin /dev/null, in a process group
// of its own, until it ends or `deadline` (now_seconds()) passes; then its
// group is killed. Keeps the first `max_bytes` of its output.
ProgramRun run_program(const std::vector<std::string>& argv, const std::string& cwd,
                       bool with_stderr, double deadline, std::size_t max_bytes);

}  // namespace distkit_agent
