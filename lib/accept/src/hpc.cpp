// The HPC column's Slurm job (contract in hpc.hpp): the script from
// templates, sbatch through this machine's shell, its answer read back.
#include "distkit/accept/hpc.hpp"

#include <algorithm>
#include <csignal>
#include <mutex>

#include "distkit/ssh/local_executor.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/self_path.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/signal_pipe.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit::accept {

namespace {

std::string hpc_job_script(const HpcOptions& o, const HpcJob& job) {
  std::string runs;
  for (const auto& r : job.runs)
    runs += render_named("accept_hpc_run.sh",
                         {{"run_dir", r.dir},
                          {"distlaunch", o.distlaunch},
                          {"launch_flags", shell_join(r.flags)},
                          {"command", shell_join(r.command)},
                          {"cwd", job.cwd},
                          {"collect", r.collect}},
                         TemplateMode::shell);
  return render_named("accept_hpc_job.sh",
                      {{"distlaunch", o.distlaunch},
                       {"probe_dir", job.probe_dir},
                       {"launch_flags", shell_join(job.probe_flags)},
                       {"probe", job.probe},
                       {"runs", runs}},
                      TemplateMode::shell);
}

std::vector<std::string> sbatch_argv(const HpcOptions& o, const HpcJob& job) {
  std::vector<std::string> argv = {"sbatch",
                                   "--wait",
                                   "--parsable",
                                   "--job-name=" + job.name,
                                   "--nodes=" + std::to_string(o.nodes),
                                   "--ntasks-per-node=" + std::to_string(job.ranks_per_node),
                                   "--chdir=" + job.cwd,
                                   "--output=" + (job.dir / "slurm-%j.out").string()};
  argv.insert(argv.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  argv.push_back((job.dir / "job.sh").string());
  return argv;
}

// The job id sbatch --parsable printed ("JOBID" or "JOBID;CLUSTER" on its
// first line, as soon as the job is queued), or "" before that.
std::string parsable_job_id(const std::string& out) {
  auto nl = out.find('\n');
  if (nl == std::string::npos) return "";
  std::string id = out.substr(0, std::min(nl, out.find(';')));
  return !id.empty() && id.find_first_not_of("0123456789") == std::string::npos ? id : "";
}

}  // namespace

HpcOutcome submit_hpc_job(const HpcOptions& o, const HpcJob& job) {
  make_directory(job.dir, "HPC job's directory", "choose a writable --work-dir");
  write_file_atomic(job.dir / "job.sh", hpc_job_script(o, job), 0755);
  // sbatch --wait runs in a process group of its own, so Ctrl-C at the
  // terminal reaches only distaccept, which must not leave the job queued
  // or running on the HPC: on INT, TERM or HUP it cancels the job (scancel)
  // and waits for sbatch to see it end (or stops sbatch before it queued,
  // or when scancel failed, which the caller then names).
  posix::SignalPipe signals;
  std::mutex mu;
  std::string out_text, err_text;
  bool ended = false;
  ssh::ExitInfo exit;
  ssh::StreamHandlers h;
  h.on_stdout = [&](std::string_view b) {
    std::lock_guard lock(mu);
    out_text += b;
  };
  h.on_stderr = [&](std::string_view b) {
    std::lock_guard lock(mu);
    err_text += b;
  };
  h.on_exit = [&](const ssh::ExitInfo& e) {
    std::lock_guard lock(mu);
    ended = true;
    exit = e;
  };
  ssh::LocalExecutor here;
  auto sbatch = here.start(shell_join(sbatch_argv(o, job)) + " </dev/null", h);
  HpcOutcome out;
  for (;;) {
    bool stop = false;
    for (int sig : signals.wait(100)) stop = stop || sig != SIGQUIT;
    std::string id;
    {
      std::lock_guard lock(mu);
      if (ended) break;
      id = parsable_job_id(out_text);
    }
    if (!stop || out.interrupted) continue;
    out.interrupted = true;
    if (!id.empty())
      if (auto r = here.run(shell_join({"scancel", id}) + " </dev/null"); !r.exit.ok())
        out.error = "scancel " + id + " failed: " + last_line(r.err);
    // Not queued yet, or not cancelled: sbatch would wait on; stop it.
    if (id.empty() || !out.error.empty()) sbatch->abort();
  }
  sbatch->wait();
  out.job_id = parsable_job_id(out_text);
  if (out.job_id.empty() && !out.interrupted) {
    std::string why = last_line(err_text);
    out.error = "sbatch " +
                (why.empty() ? "exited " + std::to_string(exit.shell_status()) : "said: " + why);
  }
  return out;
}

int check_hpc(HpcOptions& o, int world) {
  const std::string path = path_env();
  if (!find_on_path("sbatch", path))
    throw UsageError("--hpc-nodes", "sbatch not found on PATH",
                     "run distaccept where Slurm's client commands are (a login node), or leave "
                     "out --hpc-nodes");
  if (world % o.nodes != 0)
    throw UsageError("--hpc-nodes",
                     std::to_string(world) + " rank(s) do not divide among " +
                         std::to_string(o.nodes) + " node(s)",
                     "give a number of nodes that divides the cluster's ranks");
  auto dir = executable_dir();
  if (dir && std::filesystem::exists(*dir + "/distlaunch"))
    o.distlaunch = *dir + "/distlaunch";
  else if (auto found = find_on_path("distlaunch", path))
    o.distlaunch = *found;
  else
    throw UsageError("--hpc-nodes", "no distlaunch beside distaccept or on PATH",
                     "install distkit on the HPC's nodes and login node");
  return world / o.nodes;
}

}  // namespace distkit::accept
