// The preflight's checks (checks.hpp). What a shell would have answered,
// asked directly: stat and access for paths, PATH searched as execvp will
// search it for the rank, ports bound once; only the versions and the
// commit need a program (run with a deadline, output cut to its first
// line, its stdin /dev/null and its stderr dropped).
#include "checks.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/decimal.hpp"
#include "posix_util.hpp"
#include "programs.hpp"

namespace distkit_agent {
namespace {

using distkit::agent_frames::pair_value;
using distkit::agent_frames::Pairs;

// `argv`'s first line of output (stdout, and stderr too when `with_stderr`:
// python 2 printed its version there), run in `cwd`; nothing when it
// cannot run, fails, or is still running at `deadline` (then killed).
std::optional<std::string> first_line(const std::vector<std::string>& argv, const std::string& cwd,
                                      bool with_stderr, double deadline) {
  ProgramRun run = run_program(argv, cwd, with_stderr, deadline, 4096);
  if (!run.finished || run.status != 0) return std::nullopt;
  std::string out = run.out.substr(0, run.out.find('\n'));
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

// "Darwin arm64": what the launcher compares with its own for a copy.
// os: "macOS 26.1 (25B78) arm64" where sw_vers answers, else "Linux
// 6.1.0-13-amd64 x86_64" (uname -srm's words).
void system_facts(Pairs& out, double deadline) {
  utsname u{};
  if (uname(&u) != 0) return;
  out.emplace_back("system", std::string(u.sysname) + " " + u.machine);
  auto product = first_line({"sw_vers", "-productVersion"}, "", false, deadline);
  auto build =
      product ? first_line({"sw_vers", "-buildVersion"}, "", false, deadline) : std::nullopt;
  if (product && build)
    out.emplace_back("os", "macOS " + *product + " (" + *build + ") " + u.machine);
  else
    out.emplace_back("os", std::string(u.sysname) + " " + u.release + " " + u.machine);
  // Started by srun (distlaunch --launcher srun): the job step it runs in.
  const char* job = std::getenv("SLURM_JOB_ID");
  const char* step = std::getenv("SLURM_STEP_ID");
  if (job && *job && step && *step) out.emplace_back("slurm_step", std::string(job) + "." + step);
}

// Is a TCP port already taken here? Bound once, as a rank will bind it
// (any address, SO_REUSEADDR, so a port in TIME_WAIT counts as free);
// false when no socket can be made: the rank's own bind will say.
bool port_in_use(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_ANY);
  bool busy = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0;
  close(fd);
  return busy;
}

// The ports of `list` ("P1 P2 ...") that are taken, as "P1 P3".
std::string busy_ports(const std::string& list) {
  std::string busy;
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t sp = list.find(' ', at);
    std::string word = list.substr(at, sp == std::string::npos ? sp : sp - at);
    at = sp == std::string::npos ? list.size() : sp + 1;
    long port = distkit::parse_digits(word, 5).value_or(0);
    if (port < 1 || port > 65535) continue;
    if (port_in_use(static_cast<int>(port))) busy += (busy.empty() ? "" : " ") + word;
  }
  return busy;
}

}  // namespace

Pairs run_checks(const Pairs& request) {
  const double deadline = now_seconds() + static_cast<double>(distkit::kChecksTimeout);
  Pairs out;
  system_facts(out, deadline);
  std::string cwd = pair_value(request, "cwd");
  bool cwd_ok = true;
  if (!cwd.empty()) {
    struct stat st {};
    cwd_ok = stat(cwd.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(cwd.c_str(), X_OK) == 0;
    out.emplace_back("cwd", cwd_ok ? "ok" : "missing");
    if (cwd_ok && pair_value(request, "git") == "1")
      if (auto commit = first_line({"git", "rev-parse", "HEAD"}, cwd, false, deadline))
        out.emplace_back("git", *commit);
  }
  // Where the rank will run: the working directory when it exists.
  const std::string run_dir = cwd_ok ? cwd : "";
  std::string cmd = pair_value(request, "cmd");
  if (!cmd.empty()) out.emplace_back("cmd", !find_command(cmd, run_dir).empty() ? "ok" : "missing");
  std::string python = pair_value(request, "python");
  if (!python.empty()) {
    if (auto v = first_line({python, "--version"}, run_dir, true, deadline))
      out.emplace_back("python", *v);
    if (auto v =
            first_line({python, "-c", "import importlib.metadata as m; print(m.version(\"mlx\"))"},
                       run_dir, false, deadline))
      out.emplace_back("mlx", *v);
  }
  std::string busy = busy_ports(pair_value(request, "ports"));
  if (!busy.empty()) out.emplace_back("busy", busy);
  return out;
}

}  // namespace distkit_agent
