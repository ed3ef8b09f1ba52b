// Delegation to mpirun (see mpi.hpp). The variables common to all ranks are
// passed with -x; per-rank ones (ranks, local ranks) are mpirun's business.
#include "distkit/launch/mpi.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <utility>

#include "distkit/hostfile/export.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/signal_pipe.hpp"

extern char** environ;

namespace distkit::launch {

namespace {
bool per_rank(const std::string& key) {
  return key == "DISTKIT_RANK" || key == "DISTKIT_LOCAL_RANK" || key == "DISTKIT_LOCAL_SIZE" ||
         key == "DISTKIT_HOST";
}
}  // namespace

void check_backend_options(const Plan& plan, const LaunchOptions& o) {
  if (plan.backend != hostfile::Backend::mpi) {
    if (!o.mpi_args.empty())
      throw UsageError("--mpi-arg", "only --backend mpi runs mpirun",
                       "drop it, or add --backend mpi");
    return;
  }
  const LaunchOptions d;
  const std::pair<const char*, bool> supervision_only[] = {
      {"--tag-output", o.tag_output},
      {"--log-dir", o.log_dir.has_value()},
      {"--record", o.record_dir.has_value()},
      {"--debug-log", o.debug_log.has_value()},
      {"--stdin-rank", o.stdin_rank.has_value()},
      {"--no-stdin", o.no_stdin},
      {"--grace", o.grace != d.grace},
      {"--timeout", o.timeout != d.timeout},
      {"--exit-window", o.exit_window != d.exit_window},
      {"--stall-timeout", o.stall_limit != d.stall_limit},
      {"--on-stall", o.stall_dump_only},
      {"--restart", o.restart != d.restart},
      {"--max-restarts", o.max_restarts != d.max_restarts},
      {"--health-cmd", o.health_cmd.has_value()},
      {"--health-url", o.health_url.has_value()},
      {"--health-interval", o.health_interval != d.health_interval},
      {"--agent", o.agent.has_value()},
      {"--no-preflight", !o.preflight},
      {"--accept-new-host-keys", o.accept_new_host_keys},
      {"--connect-timeout", o.connect_timeout != d.connect_timeout},
  };
  for (const auto& [flag, given] : supervision_only)
    if (given)
      throw UsageError(flag,
                       "not used with --backend mpi (mpirun starts, watches and stops the ranks)",
                       "drop it, or use another backend");
}

std::vector<std::string> mpirun_argv(const Plan& plan, const LaunchOptions& options,
                                     const std::string& hostfile_path) {
  std::vector<std::string> argv = {"mpirun", "--hostfile", hostfile_path, "-np",
                                   std::to_string(plan.ranks.size())};
  // mpirun reaches the hosts with ssh (its rsh agent, orted on each): over
  // the same ssh_config as distlaunch's own connections. Open MPI splits
  // the agent's command at spaces, with no quoting.
  if (options.ssh_config) {
    std::string path = options.ssh_config->string();
    if (path.find_first_of(" \t\n") != std::string::npos)
      throw UsageError("--ssh-config",
                       "'" + path +
                           "' has a space, which mpirun's rsh agent "
                           "setting cannot carry",
                       "move the file to a path without spaces");
    argv.insert(argv.end(), {"--mca", "plm_rsh_agent", "ssh -F " + path});
  }
  for (const auto& [k, v] : plan.ranks.front().env)
    if (!per_rank(k)) argv.insert(argv.end(), {"-x", k + "=" + v});
  argv.insert(argv.end(), options.mpi_args.begin(), options.mpi_args.end());
  if (plan.cwd) argv.insert(argv.end(), {"--wdir", *plan.cwd});
  argv.insert(argv.end(), plan.command.begin(), plan.command.end());
  return argv;
}

int run_mpi(const Plan& plan, const std::vector<hostfile::Host>& ranks,
            const LaunchOptions& options) {
  const char* tmp = std::getenv("TMPDIR");
  std::string path =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/distlaunch-mpi-" + plan.job_id + ".hosts";
  write_file_atomic(path, hostfile::export_hosts(ranks, hostfile::ExportFormat::openmpi), 0600);
  auto argv = mpirun_argv(plan, options, path);
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // While mpirun runs, INT, TERM and HUP reach distlaunch as bytes (a
  // terminal's Ctrl-C reaches mpirun too, in the same process group; a
  // script's `kill` only distlaunch): each becomes one SIGTERM to mpirun,
  // which stops its ranks and orteds; a second signal SIGKILLs it (its
  // orteds then lose their lifeline). mpirun and the ranks keep SIGPIPE's
  // default, which SignalPipe ignores here.
  posix::SignalPipe signals;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, "mpirun", nullptr, &attr, cargv.data(), environ);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    unlink(path.c_str());
    throw UsageError("--backend mpi", "cannot run mpirun", "install Open MPI (openmpi-bin)");
  }
  int status = 0, stopped_by = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    for (int sig : signals.wait(100)) {
      if (sig == SIGQUIT) continue;  // no stacks under mpirun
      kill(pid, stopped_by ? SIGKILL : SIGTERM);
      if (!stopped_by) stopped_by = sig;
    }
  }
  unlink(path.c_str());
  if (stopped_by) return 128 + stopped_by;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace distkit::launch
