// run_distlaunch: one call per step, in the order a launch happens — hosts,
// plan, (dry run), connections, preflight, supervision, manifest.
#include <netdb.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "distkit/hostfile/host_list.hpp"
#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/debug_log.hpp"
#include "distkit/launch/distlaunch.hpp"
#include "distkit/launch/dry_run.hpp"
#include "distkit/launch/manifest.hpp"
#include "distkit/launch/mpi.hpp"
#include "distkit/launch/preflight.hpp"
#include "distkit/launch/restart.hpp"
#include "distkit/launch/slurm.hpp"
#include "distkit/launch/supervisor.hpp"
#include "distkit/ssh/srun_executor.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/progress.hpp"
#include "distkit/util/random.hpp"
#include "distkit/util/self_path.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/version.hpp"

namespace distkit::launch {

namespace {

// stdin is /dev/null (a script's `</dev/null`, a daemon): the ranks would
// read EOF at once, so they get /dev/null themselves and no stdin pipe.
bool is_null_device(int fd) {
  struct stat in {
  }, null{};
  return fd >= 0 && fstat(fd, &in) == 0 && stat("/dev/null", &null) == 0 && S_ISCHR(in.st_mode) &&
         in.st_rdev == null.st_rdev;
}

struct Hosts {
  hostfile::Hostfile model;
  std::optional<std::string> text;  // the hostfile's bytes
};

Hosts load_hosts(const LaunchOptions& o) {
  if (o.hostfile && o.hosts)
    throw UsageError("--hosts", "cannot be combined with --hostfile", "give one of them");
  Hosts h;
  if (o.hostfile) {
    h.text = read_file(*o.hostfile);
    h.model = hostfile::parse(*h.text, o.hostfile->string());
  } else if (o.hosts) {
    h.model.hosts = hostfile::parse_host_list(*o.hosts);
  } else if (const char* slurm = std::getenv("SLURM_JOB_NODELIST"); slurm && *slurm) {
    // The allocation's nodes, each as many times as it has tasks (a,a,b,b,
    // as -n gives), unless -n says how many.
    auto nodes = hostfile::parse_host_list(join(expand_slurm_nodelist(slurm), ","));
    std::vector<int> counts(nodes.size(), 1);
    if (!o.repeat_hosts)
      counts = slurm_tasks_per_node(std::getenv("SLURM_TASKS_PER_NODE"),
                                    std::getenv("SLURM_NTASKS_PER_NODE"), nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
      h.model.hosts.insert(h.model.hosts.end(), static_cast<size_t>(counts[i]), nodes[i]);
  } else {
    h.model.hosts = hostfile::parse_host_list("127.0.0.1");
  }
  return h;
}

// The IPv4 address of `host` as ssh reaches it (its ssh_config HostName).
std::optional<std::string> ipv4_of(const std::string& host, const LaunchOptions& o) {
  const std::string name = ssh::resolve_hostname(host, o.ssh_config).value_or(host);
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* res = nullptr;
  if (getaddrinfo(name.c_str(), nullptr, &hints, &res) != 0 || !res) return std::nullopt;
  char buf[NI_MAXHOST];
  int rc = getnameinfo(res->ai_addr, res->ai_addrlen, buf, sizeof buf, nullptr, 0, NI_NUMERICHOST);
  freeaddrinfo(res);
  if (rc != 0) return std::nullopt;
  return std::string(buf);
}

// Where to look for an installed distkit-agent on the hosts (see
// LaunchOptions), before the copy distlaunch keeps in each host's cache. A
// lab installs distkit the same way on every host, so the directory of
// this distlaunch is a good guess; Homebrew's bin is not on a Mac's PATH
// over SSH. "none": no installed one, distlaunch's own copy everywhere.
std::vector<std::string> agent_candidates(const std::optional<std::string>& option) {
  if (option) {
    if (*option == "none") return {};
    if (option->empty() || option->find('\n') != std::string::npos)
      throw UsageError("--agent", "empty or multi-line path",
                       "give the path of distkit-agent on the hosts, or none");
    return {*option};
  }
  std::vector<std::string> c = {"distkit-agent"};
  if (auto dir = executable_dir()) c.push_back(*dir + "/distkit-agent");
  for (const char* p : {"/opt/homebrew/bin/distkit-agent", "/usr/local/bin/distkit-agent"})
    if (std::find(c.begin(), c.end(), p) == c.end()) c.push_back(p);
  return c;
}

RankSettings rank_settings(const LaunchOptions& o) {
  RankSettings w{.grace = o.grace, .cwd = o.cwd, .cwd_required = o.cwd.has_value()};
  std::error_code ec;
  if (!o.cwd)
    if (auto here = std::filesystem::current_path(ec); !ec) w.cwd = here.string();
  return w;
}

// One executor per host, in plan.hosts' order. Prints every host that
// failed (after the board is gone) and throws when any did.
std::vector<std::shared_ptr<ssh::Executor>> connect_hosts(const Plan& plan, const LaunchOptions& o,
                                                          const Services& s, ProgressBoard& board,
                                                          const DebugLog& log) {
  ssh::ConnectOptions co;
  co.ssh_config = o.ssh_config;
  co.accept_new_host_keys = o.accept_new_host_keys;
  co.connect_timeout = o.connect_timeout;
  co.verbose = o.verbose;
  // A rank's host going silent is a failure to notice fast (ssh_config's
  // ServerAlive* still win): about 3 s instead of the transport's 15 s.
  co.keepalive_interval = std::chrono::milliseconds(1000);
  co.keepalive_count_max = 3;
  int most = 1;
  for (const auto& r : plan.ranks) most = std::max(most, r.local_size);
  co.max_channels_per_host = most + 1;
  for (size_t i = 0; i < plan.hosts.size(); ++i) board.set(i, HostState::connecting);
  auto conns = s.connect(plan.hosts, co);
  for (size_t i = 0; i < plan.hosts.size(); ++i) {
    bool failed = false;
    for (const auto& e : conns.errors) failed = failed || e.host == plan.hosts[i];
    board.set(i, failed ? HostState::failed : HostState::working, failed ? "unreachable" : "");
  }
  if (conns.errors.empty()) return conns.executors;
  board.finish();
  for (const auto& e : conns.errors) {
    std::fprintf(s.err, "distlaunch: error: %s\n", e.message.c_str());
    log.line(e.host, "not connected: " + e.message);
  }
  throw RemoteError("hosts",
                    std::to_string(conns.errors.size()) + " of " +
                        std::to_string(plan.hosts.size()) + " host(s) unreachable",
                    "fix them or leave them out");
}

// Each host's board line: failed when a problem names it, else done.
void mark_hosts(const Plan& plan, const PreflightReport& report, ProgressBoard& board) {
  for (size_t i = 0; i < plan.hosts.size(); ++i) {
    bool failed = std::ranges::any_of(
        report.problems, [&](const auto& p) { return p.is_error() && p.subject == plan.hosts[i]; });
    board.set(i, failed ? HostState::failed : HostState::done, failed ? "see below" : "ready");
  }
  board.finish();
}

// --health-cmd, or --health-url as curl on rank 0's host (stock on macOS).
std::string health_command(const LaunchOptions& o) {
  if (o.health_cmd) return *o.health_cmd;
  if (!o.health_url) return "";
  return "curl -fsS -o /dev/null --max-time " + std::to_string(o.health_interval.count()) + " " +
         shell_quote(*o.health_url);
}

// The job, and again as --restart says (restart.hpp), on the same agents;
// the last attempt's result, with the earlier ones in it.
JobResult supervise_with_restarts(const Plan& plan,
                                  const std::vector<std::shared_ptr<AgentClient>>& agents,
                                  SuperviseOptions so, const LaunchOptions& o, const Services& s,
                                  const DebugLog& log) {
  const RestartSettings rs{.on = o.restart == "on-failure" ? RestartOn::failure
                                 : o.restart == "on-stall" ? RestartOn::stall
                                                           : RestartOn::no,
                           .max_restarts = o.max_restarts,
                           .max_backoff = o.heartbeat_limit};
  std::vector<JobResult::Attempt> earlier;
  for (int done = 0;; ++done) {
    JobResult r = supervise(plan, agents, so);
    auto wait = restart_after(rs, done, r);
    if (!wait) {
      r.earlier = std::move(earlier);
      return r;
    }
    std::string line = "restarting the job (restart " + std::to_string(done + 1) + " of " +
                       std::to_string(rs.max_restarts) + ") in " +
                       std::to_string(wait->count() / 1000) + " s, after: " + r.reason;
    std::fprintf(s.err, "distlaunch: %s\n", line.c_str());
    log.line("job", line);
    earlier.push_back({r.exit_code, r.reason, r.start, r.end, std::move(r.stacks)});
    std::this_thread::sleep_for(*wait);
    so.append_logs = true;
  }
}

// What each host answered the preflight, and every line it reported.
void log_preflight(const PreflightReport& report, const DebugLog& log) {
  if (!log.on()) return;
  for (const auto& [host, f] : report.hosts)
    log.line(host, "agent " + (f.agent.empty() ? std::string("none") : f.agent) +
                       (f.agent_hello.empty() ? "" : ", hello " + f.agent_hello) +
                       (f.agent_copied ? ", copied there" : "") +
                       (f.answered ? ", os " + f.os : ", no answer to the checks"));
  for (const auto& p : report.problems) log.line("preflight", describe(p));
}

PreflightReport preflight(const Plan& plan, const std::vector<std::shared_ptr<AgentClient>>& agents,
                          const LaunchOptions& o, const std::vector<std::string>& candidates,
                          const Services& s, ProgressBoard& board, const DebugLog& log) {
  // The agents' timing follows from the heartbeat limit (agent_protocol.hpp).
  auto report =
      run_preflight(plan, agents, o.preflight, o.record_dir || o.log_dir, candidates,
                    own_agent_copy(), o.heartbeat_limit.count(), o.stall_limit.count() > 0);
  log_preflight(report, log);
  mark_hosts(plan, report, board);
  print_problems(s.err, "distlaunch", report.problems);
  auto of_kind = [&](std::string_view kind) {
    return std::ranges::count(report.problems, kind, &Problem::kind);
  };
  const std::string hosts = " of " + std::to_string(plan.hosts.size()) + " host(s)";
  if (auto n = of_kind("preflight-failed"))
    throw RemoteError("preflight", std::to_string(n) + hosts + " failed during the checks",
                      "check them, or leave them out");
  if (auto n = of_kind("no-agent"))
    throw UsageError("preflight", std::to_string(n) + hosts + " without a host agent",
                     "fix them as each line says");
  if (auto n = count_errors(report.problems, ExitCode::usage))
    throw UsageError("preflight", std::to_string(n) + " problem(s) found",
                     "fix them, or skip the checks with --no-preflight");
  return report;
}

// What --print-python prints, as mlx.launch (`args.python or
// sys.executable`): --python as given, else the absolute path of the
// python3 this machine's PATH finds (the one to check exists on every host).
std::string interpreter(const LaunchOptions& o) {
  if (o.python) return *o.python;
  if (auto found = find_on_path("python3", path_env())) return *found;
  throw UsageError("--print-python", "no python3 on PATH",
                   "install Python 3, or name the interpreter with --python PATH");
}

// The options with what distlaunch's surroundings add (options.hpp).
LaunchOptions with_surroundings(LaunchOptions o, std::FILE* out) {
  std::optional<TerminalSize> tty;
  winsize ws{};
  if (out && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0) tty = TerminalSize{ws.ws_col, ws.ws_row};
  o.terminal = terminal_size(std::getenv("COLUMNS"), std::getenv("LINES"), tty);
  if (const char* v = std::getenv("PYTHONUNBUFFERED")) o.python_unbuffered = v;
  const char* job = std::getenv("SLURM_JOB_ID");
  if (job && *job) o.slurm_job_id = job;
  o.launcher = choose_launcher(o.launcher, job) == Launcher::srun ? "srun" : "ssh";
  return o;
}

// How the hosts are reached: as the caller says, or srun's job steps.
Services with_launcher(const LaunchOptions& o, Services s) {
  if (o.launcher != "srun") return s;
  if (!find_on_path("srun", path_env()))
    throw UsageError("--launcher", "srun not found on PATH",
                     "install Slurm's client commands (slurm-client), or use --launcher ssh");
  s.connect = ssh::srun_connect_all;
  return s;
}

}  // namespace

RunResult run_distlaunch(const LaunchOptions& options, const Services& services) {
  if (options.print_python) {
    std::fprintf(services.out, "%s\n", interpreter(options).c_str());
    return {};
  }
  const LaunchOptions o = with_surroundings(options, services.out);
  const Services s = with_launcher(o, services);
  Hosts hosts = load_hosts(o);
  Plan plan = build_plan(
      hosts.model, o, [&o](const std::string& host) { return ipv4_of(host, o); }, random_hex(8));
  check_backend_options(plan, o);
  if (o.launcher == "srun" && plan.backend != hostfile::Backend::mpi) {
    const char* nodes = std::getenv("SLURM_JOB_NODELIST");
    check_allocation_hosts(plan.hosts, nodes ? nodes : "");
  }
  for (const auto& w : env_warnings(hosts.model, o, o.hostfile ? o.hostfile->string() : ""))
    std::fprintf(s.err, "distlaunch: warning: %s\n", w.c_str());
  if (o.stdin_rank && (*o.stdin_rank < 0 || *o.stdin_rank >= static_cast<int>(plan.ranks.size())))
    throw UsageError("--stdin-rank", "no rank " + std::to_string(*o.stdin_rank) + " in this job",
                     "give a rank between 0 and the number of ranks - 1");
  RankSettings ws = rank_settings(o);
  auto candidates = agent_candidates(o.agent);  // before the dry run: a bad --agent fails it too
  if (o.dry_run) {
    TextSink sink = [out = s.out](std::string_view t) { std::fwrite(t.data(), 1, t.size(), out); };
    if (o.json)
      write_plan_json(plan, ws, sink);
    else
      write_plan_text(plan, ws, sink);
    return {};
  }
  if (plan.backend == hostfile::Backend::mpi) {
    RunResult r;
    r.exit_code =
        run_mpi(plan, hostfile::repeat_hosts(hosts.model.hosts, o.repeat_hosts.value_or(1)), o);
    return r;
  }
  // Per-host progress until the ranks start (a live board on a TTY, event
  // lines under --verbose, nothing otherwise); erased before any output.
  auto log = o.debug_log ? std::make_unique<DebugLog>(*o.debug_log) : std::make_unique<DebugLog>();
  log->line("job", std::string("distlaunch ") + kVersion + ": " +
                       std::to_string(plan.ranks.size()) + " rank(s) on " +
                       std::to_string(plan.hosts.size()) + " host(s): " + shell_join(plan.command));
  // The manifest is written at the end: its directory is made now, so a
  // bad --record is refused before the job, not after it (exit 1).
  if (o.record_dir)
    make_directory<UsageError>(*o.record_dir, "record directory",
                               "choose a writable --record directory");
  ProgressBoard board(plan.hosts, "checking", s.err, choose_progress_mode(s.err, o.verbose));
  auto executors = connect_hosts(plan, o, s, board, *log);
  // Every host gets a host agent (agent_client.hpp) whose channel runs the
  // preflight and stays on to start all of the host's ranks; this machine's
  // through a local process, the same way.
  std::vector<std::shared_ptr<AgentClient>> agents;
  agents.reserve(executors.size());
  for (const auto& e : executors) agents.push_back(std::make_shared<AgentClient>(e, s.err));
  PreflightReport facts = preflight(plan, agents, o, candidates, s, board, *log);
  // Every host's agent runs now (else preflight() threw): it takes the
  // host's ranks.
  std::map<std::string, std::shared_ptr<AgentClient>> by_name;
  for (size_t h = 0; h < plan.hosts.size(); ++h) by_name[plan.hosts[h]] = agents[h];
  std::vector<std::shared_ptr<AgentClient>> rank_agents;
  rank_agents.reserve(plan.ranks.size());
  for (const auto& r : plan.ranks) rank_agents.push_back(by_name[r.host]);
  SuperviseOptions so{.ranks = ws,
                      .tag_output = o.tag_output,
                      .log_dir = o.log_dir,
                      .stdin_rank = o.stdin_rank,
                      .stdin_fd = o.no_stdin || is_null_device(s.stdin_fd) ? -1 : s.stdin_fd,
                      .policy = {.timeout = o.timeout,
                                 .exit_window = o.exit_window,
                                 .stall_limit = o.stall_limit,
                                 .on_stall = o.stall_dump_only ? OnStall::dump : OnStall::abort},
                      .health_cmd = health_command(o),
                      .health_interval = o.health_interval,
                      .handle_signals = s.handle_signals,
                      .out = s.out,
                      .err = s.err,
                      .secret = random_hex(32),
                      .log = log.get()};
  JobResult result = supervise_with_restarts(plan, rank_agents, so, o, s, *log);
  log->line("job", "exit " + std::to_string(result.exit_code) +
                       (result.reason.empty() ? "" : ": " + result.reason));
  for (auto dir : {o.record_dir, o.log_dir})
    if (dir) write_manifest(*dir, {o, plan, facts, result, hosts.text});
  // Then every host's agent ends, all told at once; each end is in the
  // debug log (a slow teardown says where it waited).
  for (const auto& a : agents) a->end_input();
  for (size_t h = 0; h < agents.size(); ++h) {
    agents[h]->wait_ended();
    log->line(plan.hosts[h], "agent ended");
  }
  // All connections end at once (one after another, each took ~2.5 ms).
  for (const auto& e : executors) e->close_soon();
  return {result.exit_code, result.interrupted, result.stalled, result.reason,
          std::move(facts.problems)};
}

}  // namespace distkit::launch
