// Stack dumps (stacks.hpp). Runs in a process the agent forks for one
// request, so the agent's loop (heartbeats, output) never waits on a tool.
#include "stacks.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "distkit/launch/agent_protocol.hpp"
#include "group.hpp"
#include "posix_util.hpp"
#include "programs.hpp"

namespace distkit_agent {
namespace {

constexpr std::size_t kMaxProcesses = 4;
constexpr std::size_t kMaxBytesPerProcess = std::size_t{64} * 1024;

bool is_python(const std::string& name) {
  return name.rfind("python", 0) == 0 || name.rfind("Python", 0) == 0;
}

// The native stack tool for `pid`: its arguments, and a temp file it
// writes instead of stdout ("" none). Empty: no tool here.
std::vector<std::string> native_tool(pid_t pid, [[maybe_unused]] std::string& file) {
  const std::string p = std::to_string(pid);
#ifdef __APPLE__
  // sample(1) is part of macOS; it writes its report to a file.
  if (!find_command("sample").empty()) {
    const char* t = std::getenv("TMPDIR");
    file = std::string(t && *t ? t : "/tmp") + "/distkit-sample-" + p + ".txt";
    return {"sample", p, "1", "-mayDie", "-file", file};
  }
#else
  if (!find_command("eu-stack").empty()) return {"eu-stack", "-p", p};
  if (!find_command("gdb").empty())
    return {"gdb", "-nx", "-q", "-batch", "-p", p, "-ex", "thread apply all bt"};
#endif
  return {};
}

// gdb's report without its chatter (libthread_db, auto-load advice,
// source lines, detaching): the "Thread" and "#N" lines; all of it when it
// has none (it could not attach: the reason is in there).
std::string gdb_frames(const std::string& out) {
  std::string kept;
  std::size_t at = 0;
  while (at < out.size()) {
    std::size_t nl = out.find('\n', at);
    std::string line = out.substr(at, nl == std::string::npos ? nl : nl - at);
    at = nl == std::string::npos ? out.size() : nl + 1;
    if (line.rfind("Thread ", 0) == 0 || line.rfind('#', 0) == 0) kept += line + "\n";
  }
  if (kept.empty()) return out;
  kept.pop_back();
  return kept;
}

// The tool's report on `pid` (gdb's without its chatter), and a note when
// it had to be stopped.
std::string run_tool(const std::vector<std::string>& argv, const std::string& file, pid_t pid,
                     double deadline) {
  double until =
      std::min(deadline, now_seconds() + static_cast<double>(distkit::kStackToolTimeout));
  ProgramRun run = run_program(argv, "", true, until, kMaxBytesPerProcess);
  std::string out = run.out;
  if (!file.empty()) {
    out = read_file(file, kMaxBytesPerProcess) + (out.empty() ? "" : "\n" + out);
    unlink(file.c_str());
  }
  // Whether killed at its deadline or ended on its own, a ptrace tool can
  // leave the process stopped (a SIGSTOP of its attach still pending at
  // the detach): a dump must never freeze a rank, nor keep a Python one
  // from running faulthandler after it.
  kill(pid, SIGCONT);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return (argv[0] == "gdb" ? gdb_frames(out) : out) + "\n" +
         (run.finished ? "" : "(" + argv[0] + " did not finish in time; stopped)\n");
}

}  // namespace

std::string dump_stacks(pid_t pgid, bool final, double deadline) {
  auto members = group_members(pgid, kMaxProcesses);
  if (members.empty()) return "no process of the rank is left";
  const bool have_pyspy = !find_command("py-spy").empty();
  std::string text;
  for (const auto& m : members) {
    if (now_seconds() >= deadline) {
      text += "(no time left for pid " + std::to_string(m.pid) + ")\n";
      break;
    }
    const bool pyspy = have_pyspy && is_python(m.name);
    std::string file;
    auto tool = pyspy ? std::vector<std::string>{"py-spy", "dump", "--pid", std::to_string(m.pid)}
                      : native_tool(m.pid, file);
    if (tool.empty()) {
#ifdef __APPLE__
      return "no stack tool on this host: sample(1), part of macOS, is not on PATH\n";
#else
      return "no stack tool on this host: install elfutils (eu-stack) or gdb\n";
#endif
    }
    text += "pid " + std::to_string(m.pid) + " (" + m.name + "), " + tool[0] + ":\n";
    text += run_tool(tool, file, m.pid, deadline);
    if (pyspy || !is_python(m.name)) continue;
    if (final) {
      text +=
          "(Python frames: py-spy is not installed here; faulthandler prints them on the "
          "rank's stderr now, as it is stopped with SIGABRT)\n";
      kill(m.pid, SIGABRT);
      // Until it is gone (at most 2 s): the answer to this dump lets
      // distlaunch stop the job, and a SIGTERM arriving while
      // faulthandler still writes would cut its frames off.
      for (double until = now_seconds() + 2; now_seconds() < until && kill(m.pid, 0) == 0;)
        usleep(10 * 1000);
    } else {
      text +=
          "(Python frames: install py-spy on this host, or they are printed when "
          "distlaunch stops the job on a stall or --timeout)\n";
    }
  }
  return text;
}

}  // namespace distkit_agent
