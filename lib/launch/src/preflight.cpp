// Preflight checks (contract in preflight.hpp). Per host, the locator
// script starts the agent, whose answer to the P frame is the facts
// (apps/agent/checks.cpp); every decision is taken here, from the
// structured answer.
#include "distkit/launch/preflight.hpp"

#include <sys/stat.h>
#include <sys/utsname.h>

#include <algorithm>
#include <future>
#include <mutex>
#include <set>

#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/self_path.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"
#include "distkit/version.hpp"

namespace distkit::launch {

namespace {

bool is_python(const std::string& word) {
  return word.substr(word.rfind('/') + 1).starts_with("python");  // no '/': npos + 1 is 0
}

// The ports of `host`'s ranks, as "p1 p2 ...".
std::string ports_of(const Plan& plan, const std::string& host) {
  std::string out;
  for (const auto& r : plan.ranks)
    if (r.host == host)
      for (int p : r.ports) out += (out.empty() ? "" : " ") + std::to_string(p);
  return out;
}

void report_busy_port(const Plan& plan, const std::string& host, int port,
                      PreflightReport& report) {
  int rank = -1;
  for (const auto& r : plan.ranks)
    if (r.host == host && std::find(r.ports.begin(), r.ports.end(), port) != r.ports.end())
      rank = r.rank;
  const char* flag = plan.backend == hostfile::Backend::nccl ? "--nccl-port" : "--starting-port";
  report.problems.push_back(
      {host, "port-busy",
       "port " + std::to_string(port) + " (rank " + std::to_string(rank) + ") is already in use",
       std::string("stop what holds it or pick another ") + flag});
}

// The remedy every host-agent problem shares.
std::string agent_remedy() {
  return std::string("install distkit ") + kVersion +
         " there, or pass --agent none to use distlaunch's own copy";
}

// What became of distlaunch's own agent on a host that had none.
enum class Copy {
  not_tried,     // the host had an agent, or its check failed
  none,          // no copy beside this distlaunch
  other_system,  // the host runs another OS or architecture
  failed,        // the copy could not be stored: HostAnswer::copy_failure says why
  made,
};

// One host's answer: what its channel said, and what became of the copy.
struct HostAnswer {
  AgentOpening opening;
  Copy copy = Copy::not_tried;
  std::string copy_failure;  // "failed (status 1: mkdir: ...)", for Copy::failed
  std::string own_system;    // this distlaunch's, for the refusal
};

// Why `host` has no host agent of this protocol (nothing when it has one).
std::optional<Problem> agent_problem(const std::string& host, const HostAnswer& a, bool running) {
  if (running) return std::nullopt;
  const AgentOpening& o = a.opening;
  auto found = [&](std::string problem, std::string remedy) {
    return Problem{host, "no-agent", std::move(problem), std::move(remedy)};
  };
  if (o.protocol >= 0 && o.protocol != kAgentProtocol)
    return found(o.agent + " speaks host-agent protocol " + std::to_string(o.protocol) +
                     " (distkit " + o.version + "), this distlaunch " +
                     std::to_string(kAgentProtocol) + " (distkit " + kVersion + ")",
                 agent_remedy());
  if (!o.agent.empty())
    return found(
        o.agent + " did not start as a host agent of protocol " + std::to_string(kAgentProtocol) +
            " (" + (o.protocol < 0 ? "" : "it ended before answering the checks, ") + "exit " +
            std::to_string(o.exit.shell_status()) + (o.err.empty() ? "" : ": " + o.err) + ")",
        agent_remedy());
  if (a.copy == Copy::other_system)
    return found("no distkit-agent there, and it runs " + o.system + ", this distlaunch " +
                     a.own_system + ", so distlaunch's own cannot run there",
                 "install distkit on " + host +
                     " (see README: hosts), or name its distkit-agent with --agent");
  if (a.copy == Copy::none)
    return found("no distkit-agent there, and none beside this distlaunch to copy",
                 "install distkit on " + host + ", or name its distkit-agent with --agent");
  if (a.copy == Copy::failed)
    return found("copying distkit-agent there " + a.copy_failure,
                 "check the space and permissions of ~/.cache/distkit there, or install "
                 "distkit on " +
                     host);
  // Stored, yet not found runnable when located again: the cache's file
  // system does not run programs (mounted noexec, as homes can be).
  return found(
      "distlaunch's own distkit-agent was copied to ~/.cache/distkit there, and cannot "
      "run from it (is that file system mounted noexec?)",
      "install distkit on " + host + ", or name its distkit-agent with --agent");
}

void check_host(const std::string& host, const HostAnswer& a, const Plan& plan, bool agent_running,
                PreflightReport& report) {
  const AgentOpening& o = a.opening;
  auto fact = [&](const char* key) { return agent_frames::pair_value(o.facts, key); };
  report.hosts[host] = {fact("os"),
                        fact("python"),
                        fact("mlx"),
                        fact("git"),
                        o.agent,
                        o.protocol >= 0 ? std::to_string(o.protocol) + " " + o.version : "",
                        a.copy == Copy::made,
                        o.answered,
                        fact("slurm_step")};
  if (!o.exit.error.empty()) {
    report.problems.push_back({host, "preflight-failed", "preflight failed (" + o.exit.error + ")",
                               "check the host", Severity::error, ExitCode::failure});
    return;
  }
  if (auto why = agent_problem(host, a, agent_running)) report.problems.push_back(*why);
  if (!o.answered) return;
  if (o.version != kVersion)
    report.problems.push_back({host, "agent-version",
                               "distkit-agent is distkit " + o.version + ", this distlaunch " +
                                   kVersion + " (same protocol, so the job runs)",
                               "install the same version there", Severity::warning});
  const std::string& cmd = plan.command.front();
  if (fact("cmd") == "missing")
    report.problems.push_back(
        {host, "command-missing", "command '" + cmd + "' not found",
         cmd.ends_with(".py")
             ? "run the script with its interpreter (python3 " + cmd + ", or --python PATH)"
             : std::string("install it there or give its full path")});
  if (fact("cwd") == "missing")  // only asked of a --cwd given
    report.problems.push_back({host, "cwd-missing",
                               "directory '" + plan.cwd.value_or("") + "' does not exist",
                               "create it there or fix --cwd"});
  for (const auto& word : split_words(fact("busy")))
    report_busy_port(plan, host, parse_decimal<int>(word).value_or(-1), report);
}

// The preflight's request to `host`'s agent (its P frame): the timing,
// then what to check.
agent_frames::Pairs check_request(const Plan& plan, const std::string& host, bool want_commit,
                                  long heartbeat_limit, bool sample) {
  auto pairs = agent_timing(heartbeat_limit, kFirstRankWait);
  if (sample) pairs.emplace_back("sample", "1");
  const std::string& cmd = plan.command.front();
  pairs.insert(pairs.end(), {{"cwd", plan.cwd.value_or("")},
                             {"cmd", cmd},
                             {"python", is_python(cmd) ? cmd : ""},
                             {"git", want_commit ? "1" : "0"},
                             {"ports", ports_of(plan, host)}});
  return pairs;
}

void warn_drift(const char* what, std::string HostFacts::*field, PreflightReport& report) {
  std::set<std::string> values;
  for (const auto& [h, f] : report.hosts)
    if (!(f.*field).empty()) values.insert(f.*field);
  if (values.size() < 2) return;
  std::string list;
  for (const auto& [h, f] : report.hosts) list += (list.empty() ? "" : ", ") + h + ": " + f.*field;
  report.problems.push_back({"", "drift",
                             std::string("hosts differ in ") + what + " (" + list + ")", "",
                             Severity::warning});
}

}  // namespace

std::optional<AgentCopy> own_agent_copy() {
  auto dir = executable_dir();
  if (!dir) return std::nullopt;
  AgentCopy c;
  c.path = *dir + "/distkit-agent";
  struct stat st {};
  if (stat(c.path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
    return std::nullopt;
  if (utsname u{}; uname(&u) == 0) c.system = std::string(u.sysname) + " " + u.machine;
  // The build, by size and modification time: a rebuilt distkit-agent
  // gets a fresh copy, the same one is copied once per host.
  char build[64];
  std::snprintf(build, sizeof build, "%llx-%llx", static_cast<unsigned long long>(st.st_size),
                static_cast<unsigned long long>(st.st_mtime));
  c.build = std::string(kVersion) + "-" + build;
  return c;
}

PreflightReport run_preflight(const Plan& plan,
                              const std::vector<std::shared_ptr<AgentClient>>& agents, bool check,
                              bool want_commit, const std::vector<std::string>& candidates,
                              const std::optional<AgentCopy>& copy, long heartbeat_limit,
                              bool sample_progress) {
  const auto timeout = std::chrono::seconds(kPreflightTimeout);
  // The cached copy's path, expanded on the host (its $HOME).
  const std::string cached = copy ? "\"${XDG_CACHE_HOME:-$HOME/.cache}/distkit/\"" +
                                        shell_quote(copy->build) + "/distkit-agent"
                                  : "";
  auto locator = [](const std::string& words) {
    return render_named("launch_agent_start.sh",
                        {{"candidates", words}, {"protocol", kAgentProtocolFlag}},
                        TemplateMode::shell);
  };
  const std::string first = locator(shell_join(candidates) + (cached.empty() ? "" : " " + cached));
  // The copy's bytes, read once per job and only if some host needs them.
  std::once_flag read_once;
  std::string bytes;
  std::vector<std::future<HostAnswer>> results;
  for (size_t i = 0; i < agents.size(); ++i) {
    auto request =
        check_request(plan, plan.hosts[i], want_commit, heartbeat_limit, sample_progress);
    results.push_back(std::async(std::launch::async, [agent = agents[i], request, &first, &locator,
                                                      &cached, timeout, copy, &read_once, &bytes] {
      auto round = [&](const std::string& script) {
        auto done = agent->start_with_preflight(script, request);
        if (done.wait_for(timeout) == std::future_status::ready) return done.get();
        agent->abort_agent();  // no agent then, even if it answered meanwhile
        auto r = done.get();
        r.answered = false;
        r.exit = {.error = "timed out after " + std::to_string(timeout.count()) + " s"};
        return r;
      };
      HostAnswer a;
      a.opening = round(first);
      const AgentOpening& o = a.opening;
      if (agent->running() || !o.exit.error.empty() || !o.agent.empty()) return a;  // reported
      // The channel failed before the locator said anything (srun
      // refusing the step, a shell that does not start): its failure.
      if (o.system.empty() && !o.exit.ok()) {
        a.opening.exit.error = "its first command ended with status " +
                               std::to_string(o.exit.shell_status()) +
                               (o.err.empty() ? "" : ": " + o.err);
        return a;
      }
      // None there: copy ours where it can run, then locate it again.
      if (!copy) return a.copy = Copy::none, a;
      a.own_system = copy->system;
      if (o.system != copy->system) return a.copy = Copy::other_system, a;
      ssh::RunOptions ro;
      ro.timeout = std::chrono::seconds(kAgentCopyTimeout);
      try {
        std::call_once(read_once, [&] { bytes = read_file(copy->path); });
        ro.stdin_data = bytes;
      } catch (const std::exception& e) {
        return a.copy = Copy::failed, a.copy_failure = std::string("failed: ") + e.what(), a;
      }
      auto up = agent->host_executor().run(
          render_named("launch_agent_copy.sh",
                       {{"build", copy->build}, {"size", std::to_string(ro.stdin_data.size())}},
                       TemplateMode::shell),
          ro);
      if (!up.exit.ok()) {
        // What the host said (mkdir's or cat's complaint) names the cause.
        std::string why = up.exit.error;
        if (why.empty()) {
          why = "status " + std::to_string(up.exit.shell_status());
          if (auto said = first_line(up.err); !said.empty()) why += ": " + said;
        }
        return a.copy = Copy::failed, a.copy_failure = "failed (" + why + ")", a;
      }
      a.opening = round(locator(cached));
      a.copy = Copy::made;
      return a;
    }));
  }
  PreflightReport report;
  for (size_t i = 0; i < agents.size(); ++i) {
    HostAnswer answer = results[i].get();  // before asking whether its agent runs
    check_host(plan.hosts[i], answer, plan, agents[i]->running(), report);
  }
  warn_drift("OS", &HostFacts::os, report);
  warn_drift("python", &HostFacts::python, report);
  warn_drift("mlx", &HostFacts::mlx, report);
  // Without the checks only what stops the job is left: a host whose check
  // failed (it has no agent either), a host without an agent.
  if (!check)
    std::erase_if(report.problems, [](const Problem& p) {
      return p.kind != "preflight-failed" && p.kind != "no-agent";
    });
  return report;
}

}  // namespace distkit::launch
