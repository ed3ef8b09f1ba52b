// Running other programs (programs.hpp).
#include "programs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "posix_util.hpp"

namespace distkit_agent {
namespace {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// `name` relative to `cwd` when it is not absolute.
std::string in_dir(const std::string& cwd, const std::string& name) {
  return name.empty() || name[0] == '/' || cwd.empty() ? name : cwd + "/" + name;
}

}  // namespace

std::string find_command(const std::string& cmd, const std::string& cwd) {
  if (cmd.empty()) return "";
  if (cmd.find('/') != std::string::npos)
    return is_executable_file(in_dir(cwd, cmd)) ? in_dir(cwd, cmd) : "";
  const char* env = std::getenv("PATH");
  std::string path = env ? env : "/usr/bin:/bin";
  std::size_t at = 0;
  while (true) {
    std::size_t colon = path.find(':', at);
    std::string dir = path.substr(at, colon == std::string::npos ? colon : colon - at);
    std::string candidate = in_dir(cwd, (dir.empty() ? "." : dir) + "/" + cmd);
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string::npos) return "";
    at = colon + 1;
  }
}

ProgramRun run_program(const std::vector<std::string>& argv, const std::string& cwd,
                       bool with_stderr, double deadline, std::size_t max_bytes) {
  namespace posix = distkit::posix;
  ProgramRun run;
  posix::Fd out_r, out_w, null(open("/dev/null", O_RDWR | O_CLOEXEC));
  if (argv.empty() || !posix::make_pipe(out_r, out_w, true)) return run;
  // In its own group, so a deadline kills what it started too; sh changes
  // to `cwd` (posix_spawn has no portable chdir).
  std::vector<std::string> args = argv;
  if (!cwd.empty()) args.insert(args.begin(), {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", cwd});
  int err = 0;
  pid_t pid = posix::spawn_in_new_group(
      args, {null.get(), out_w.get(), with_stderr ? out_w.get() : null.get()}, err);
  out_w.reset();
  if (pid < 0) return {"", true, 127};  // as a shell reports a command it cannot run
  bool open_pipe = true;
  while (open_pipe) {
    double left = deadline - now_seconds();
    if (left <= 0) break;
    pollfd fd = {out_r.get(), POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(left * 1000) + 1) <= 0) continue;
    char buf[4096];
    ssize_t n = read(out_r.get(), buf, sizeof buf);
    if (n > 0) {
      // Past the limit it is read and dropped: a full pipe must not stall it.
      if (run.out.size() < max_bytes)
        run.out.append(buf, std::min(static_cast<std::size_t>(n), max_bytes - run.out.size()));
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      open_pipe = false;
    }
  }
  out_r.reset();
  if (open_pipe) kill(-pid, SIGKILL);  // past the deadline
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  run.finished = !open_pipe;
  run.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return run;
}

}  // namespace distkit_agent
