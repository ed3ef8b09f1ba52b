// distaccept's command line and run: task file -> runs -> levels -> report.
#include "distkit/accept/distaccept.hpp"

#include <ctime>

#include "distkit/accept/levels.hpp"
#include "distkit/accept/report.hpp"
#include "distkit/accept/runner.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/terminal.hpp"
#include "distkit/util/tool_main.hpp"
#include "distkit/util/utc_time.hpp"
#include "distkit/version.hpp"

namespace distkit::accept {

namespace fs = std::filesystem;

void configure_cli(CLI::App& app, AcceptOptions& o) {
  app.description(
      "Run a task on one host and across the cluster, repeat it, compare the results\n"
      "and report three levels: runs, reproducible, deliverable.\n"
      "Run as: distaccept --hostfile FILE [flags] TASK.json");
  app.set_version_flag("--version", std::string("distaccept ") + kVersion);
  app.add_option("task", o.task, "The task declaration (JSON; see distaccept(1))")->required();
  app.add_option("--hostfile", o.run.hostfile, "The cluster's hostfile (MLX JSON)")->required();
  app.add_option("--baseline-host", o.run.baseline_host,
                 "Host of the one-host baseline (default: the hostfile's first)");
  app.add_option("-k,--repetitions", o.repetitions, "Runs of each kind (overrides the task's)")
      ->check(whole_number(1, 100));
  app.add_option("-n,--ranks-per-host", o.ranks_per_host,
                 "Ranks per cluster host (overrides the task's)")
      ->check(whole_number(1, 1024));
  app.add_option("--work-dir", o.work_dir,
                 "Where runs, logs and manifests go (default ./distaccept-runs/TIME)");
  app.add_flag("--json", o.json, "Print the report as JSON (schema distkit.acceptance/1)");
  app.add_flag("--verbose", o.verbose, "Print each step on stderr even when it is not a TTY");
  app.add_option("--ssh-config", o.run.access.ssh_config, "ssh_config file to read");
  app.add_flag("--accept-new-host-keys", o.run.access.accept_new_host_keys,
               "Accept unknown host keys (never changed ones)");
  app.add_option("-p,--starting-port", o.run.access.starting_port,
                 "First port of the ranks' ring (default 32323)")
      ->check(whole_number(1, 65535));
  app.add_option_function<double>(
      "--connect-timeout",
      [&o](double s) {
        o.run.access.connect_timeout = launch::seconds_as_ms(s, "--connect-timeout", 0.001);
      },
      "Seconds to reach each host (default 10)");
  app.add_option("--hpc-nodes", o.hpc_nodes,
                 "Also run the task's repetitions as one Slurm job of N nodes (sbatch --wait, "
                 "distlaunch inside it), the same number of ranks, compared with the others")
      ->check(whole_number(1, 1024));
  app.add_option("--sbatch-arg", o.sbatch_args,
                 "An extra sbatch argument for the HPC job (repeatable), e.g. "
                 "--sbatch-arg=--partition=cpu")
      ->allow_extra_args(false);
}

namespace {

fs::path default_work_dir() {
  return fs::current_path() / "distaccept-runs" / utc_time(std::time(nullptr), UtcFormat::compact);
}

Task load_task(const AcceptOptions& o) {
  Task t = parse_task(read_file(o.task), o.task.string());
  if (o.repetitions) t.repetitions = *o.repetitions;
  if (o.ranks_per_host) t.ranks_per_host = *o.ranks_per_host;
  if (t.name.empty()) t.name = o.task.stem().string();
  t.cwd = fs::absolute(t.cwd.value_or(".")).lexically_normal().string();
  if (t.cwd->size() > 1 && t.cwd->back() == '/') t.cwd->pop_back();
  return t;
}

}  // namespace

int run_distaccept(const AcceptOptions& o, std::FILE* out, std::FILE* err) {
  Task task = load_task(o);
  RunnerOptions ro = o.run;
  ro.work_dir = fs::absolute(o.work_dir.value_or(default_work_dir())).lexically_normal();
  ro.progress = o.verbose || is_tty(err) ? err : nullptr;
  if (o.hpc_nodes)
    ro.hpc = HpcOptions{*o.hpc_nodes, o.sbatch_args, ""};
  else if (!o.sbatch_args.empty())
    throw UsageError("--sbatch-arg", "given without --hpc-nodes", "add --hpc-nodes N");
  Evidence evidence = run_acceptance(task, ro);
  Verdict verdict = judge(task, evidence);
  if (evidence.interrupted) verdict.exit_code = static_cast<int>(ExitCode::interrupted);
  ReportInputs in{task, o.task.string(), ro.work_dir.string(), evidence, verdict};
  std::string json = render_json(in);
  write_file_atomic(ro.work_dir / "acceptance.json", json);
  // Interrupted: the record and --json, then the one line from the catch site.
  std::string text = o.json ? json : evidence.interrupted ? "" : render_text(in, use_color(out));
  std::fwrite(text.data(), 1, text.size(), out);
  if (const auto& p = evidence.interrupted) throw Error(p->subject, p->problem, p->remedy, p->code);
  print_problems(err, "distaccept", report_problems(in));
  return verdict.exit_code;
}

}  // namespace distkit::accept
