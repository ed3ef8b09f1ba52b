// Preflight checks (contract in preflight.hpp). One rendered script per host
// answers with key=value lines; the decisions are taken here.
#include "distkit/launch/preflight.hpp"

#include <sys/stat.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <mutex>
#include <set>

#include "distkit/launch/agent_protocol.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/port_in_use.hpp"
#include "distkit/util/self_path.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"
#include "distkit/version.hpp"

namespace distkit::launch {

namespace {

bool is_python(const std::string& word) {
  auto slash = word.rfind('/');
  std::string base = slash == std::string::npos ? word : word.substr(slash + 1);
  return base.rfind("python", 0) == 0;
}

std::map<std::string, std::string> parse_facts(const std::string& out) {
  std::map<std::string, std::string> kv;
  for (auto line : split_lines(out)) {
    auto eq = line.find('=');
    if (eq != std::string_view::npos)
      kv[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  return kv;
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
  report.problems.push_back(host + ": port " + std::to_string(port) + " (rank " +
                            std::to_string(rank) +
                            ") is already in use; stop what holds it or pick another " + flag);
}

// The remedy every host-agent problem shares.
std::string agent_remedy() {
  return std::string("install distkit ") + kVersion +
         " there, or pass --agent none to use distlaunch's own copy";
}

// Why `host` has no host agent of this protocol ("" when it has one).
std::string agent_problem(const std::string& host, std::map<std::string, std::string>& kv,
                          bool running) {
  if (running) return "";
  const std::string ours = std::to_string(kAgentProtocol);
  if (!kv["agent_refused"].empty())
    return host + ": " + kv["agent_refused"] + " refused " + kAgentProtocolFlag +
           " (distkit-agent of another distkit version?); " + agent_remedy();
  if (!kv[std::string(kHelloFact)].empty()) {
    auto words = split_words(kv[std::string(kHelloFact)]);
    std::string theirs = words.empty() ? "?" : std::string(words[0]);
    std::string version = words.size() > 1 ? std::string(words[1]) : "?";
    return host + ": " + kv["agent"] + " speaks host-agent protocol " + theirs + " (distkit " +
           version + "), this distlaunch " + ours + " (distkit " + kVersion + "); " +
           agent_remedy();
  }
  if (!kv["agent"].empty())
    return host + ": " + kv["agent"] +
           " did not start as the host agent (a distkit-agent from before distkit's host "
           "agent?); " +
           agent_remedy();
  const std::string& copy = kv["agent_copy"];
  if (copy == "other-system")
    return host + ": no distkit-agent there, and it runs " + kv["system"] + ", this distlaunch " +
           kv["own_system"] + ", so distlaunch's own cannot run there; install distkit on " + host +
           " (see README: hosts), or name its distkit-agent with --agent";
  if (copy == "none")
    return host +
           ": no distkit-agent there, and none beside this distlaunch to copy; "
           "install distkit on " +
           host + ", or name its distkit-agent with --agent";
  if (copy.rfind("failed", 0) == 0)
    return host + ": copying distkit-agent there " + copy +
           "; check the space and permissions of ~/.cache/distkit there, or install distkit on " +
           host;
  return host + ": no distkit-agent there (not copied); install distkit on " + host;
}

void check_host(const std::string& host, const ssh::CommandResult& res, const Plan& plan,
                bool cwd_required, bool agent_running, PreflightReport& report) {
  auto kv = parse_facts(res.out);
  HostFacts& facts = report.hosts[host];
  facts = {kv["os"],
           kv["python"],
           kv["mlx"],
           kv["git"],
           kv["agent"],
           kv[std::string(kHelloFact)],
           kv["agent_copied"] == "1",
           res.exit.error.empty()};
  if (!res.exit.error.empty()) {
    report.failures.push_back(host + ": preflight failed (" + res.exit.error + "); check the host");
    return;
  }
  if (auto why = agent_problem(host, kv, agent_running); !why.empty())
    report.agent_problems.push_back(why);
  auto words = split_words(facts.agent_hello);
  if (words.size() > 1 && words[1] != kVersion)
    report.warnings.push_back(host + ": distkit-agent is distkit " + std::string(words[1]) +
                              ", this distlaunch " + kVersion +
                              " (same protocol, so the job runs); install the same version there");
  if (kv["cmd"] == "missing")
    report.problems.push_back(host + ": command '" + plan.command.front() +
                              "' not found; install it there or give its full path");
  if (cwd_required && kv["cwd"] == "missing")
    report.problems.push_back(host + ": directory '" + plan.cwd.value_or("") +
                              "' does not exist; create it there or fix --cwd");
  for (auto word : split_words(kv["busy"]))
    report_busy_port(plan, host, std::atoi(std::string(word).c_str()), report);
}

// This machine's system as `uname -s` `uname -m` print it.
std::string own_system() {
  utsname u{};
  if (uname(&u) != 0) return "";
  return std::string(u.sysname) + " " + u.machine;
}

// The copy's bytes, read once per job and only if some host needs them.
class CopyBytes {
 public:
  explicit CopyBytes(std::string path) : path_(std::move(path)) {}
  const std::string& get() {
    std::call_once(once_, [&] { bytes_ = read_file(path_); });
    return bytes_;
  }

 private:
  std::string path_;
  std::once_flag once_;
  std::string bytes_;
};

void warn_drift(const char* what, std::string HostFacts::*field, PreflightReport& report) {
  std::set<std::string> values;
  for (const auto& [h, f] : report.hosts)
    if (!(f.*field).empty()) values.insert(f.*field);
  if (values.size() < 2) return;
  std::string list;
  for (const auto& [h, f] : report.hosts) list += (list.empty() ? "" : ", ") + h + ": " + f.*field;
  report.warnings.push_back(std::string("hosts differ in ") + what + " (" + list + ")");
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
  c.system = own_system();
  // The build, by size and modification time: a rebuilt distkit-agent
  // gets a fresh copy, the same one is copied once per host.
  char build[64];
  std::snprintf(build, sizeof build, "%llx-%llx", static_cast<unsigned long long>(st.st_size),
                static_cast<unsigned long long>(st.st_mtime));
  c.build = std::string(kVersion) + "-" + build;
  return c;
}

PreflightReport run_preflight(const Plan& plan,
                              const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                              const std::vector<std::shared_ptr<AgentClient>>& agents,
                              bool cwd_required, bool check, bool want_commit,
                              const std::vector<std::string>& candidates,
                              const std::optional<AgentCopy>& copy, long agent_idle) {
  const auto timeout = std::chrono::seconds(kPreflightTimeout);
  const std::string& cmd = plan.command.front();
  // The cached copy's path, expanded on the host (its $HOME).
  const std::string cached = copy ? "\"${XDG_CACHE_HOME:-$HOME/.cache}/distkit/\"" +
                                        shell_quote(copy->build) + "/distkit-agent"
                                  : "";
  auto bytes = std::make_shared<CopyBytes>(copy ? copy->path : "");
  std::vector<std::future<ssh::CommandResult>> results;
  for (size_t i = 0; i < executors.size(); ++i) {
    // This machine's ports are tried here, directly, not by its agent.
    bool local = executors[i]->is_local();
    // Rendered again only where the copy is made (the tasks end before we
    // return, so the references it holds stay valid).
    auto script = [&, i, local](const std::string& words) {
      return render_named(
          "launch_preflight.sh",
          {{"cwd", plan.cwd.value_or("")},
           {"cmd", cmd},
           {"git", want_commit ? "1" : "0"},
           {"python", is_python(cmd) ? cmd : ""},
           {"ports", local ? "" : ports_of(plan, plan.hosts[i])},
           {"candidates", words},
           {"protocol", kAgentProtocolFlag},
           {"agent_timing", std::to_string(agent_idle) + " " + std::to_string(kFirstRankWait)}},
          TemplateMode::shell);
    };
    std::string first = script(shell_join(candidates) + (cached.empty() ? "" : " " + cached));
    results.push_back(std::async(std::launch::async, [agent = agents[i], ex = executors[i], first,
                                                      script, &cached, timeout, copy, bytes] {
      auto round = [&](const std::string& s) {
        auto done = agent->start_with_preflight(s);
        if (done.wait_for(timeout) == std::future_status::ready) return done.get();
        agent->abort_agent();  // no agent then, even if it said hello meanwhile
        auto r = done.get();
        r.exit = {};
        r.exit.error = "timed out after " + std::to_string(timeout.count()) + " s";
        return r;
      };
      auto r = round(first);
      if (agent->running() || !r.exit.error.empty()) return r;
      auto kv = parse_facts(r.out);
      if (!kv["agent"].empty() || !kv["agent_refused"].empty()) return r;  // reported
      // None there: copy ours where it can run, then the check again.
      if (!copy) return r.out += "agent_copy=none\n", r;
      if (kv["system"] != copy->system)
        return r.out += "agent_copy=other-system\nown_system=" + copy->system + "\n", r;
      ssh::RunOptions ro;
      ro.timeout = std::chrono::seconds(kAgentCopyTimeout);
      try {
        ro.stdin_data = bytes->get();
      } catch (const std::exception& e) {
        return r.out += std::string("agent_copy=failed: ") + e.what() + "\n", r;
      }
      auto up = ex->run(
          render_named("launch_agent_copy.sh",
                       {{"build", copy->build}, {"size", std::to_string(ro.stdin_data.size())}},
                       TemplateMode::shell),
          ro);
      if (!up.exit.ok()) {
        // What the host said (mkdir's or cat's complaint) names the cause.
        std::string why = up.exit.error;
        if (why.empty()) {
          why = "status " + std::to_string(up.exit.shell_status());
          auto said = split_lines(up.err);
          if (!said.empty() && !said.front().empty()) why += ": " + std::string(said.front());
        }
        return r.out += "agent_copy=failed (" + why + ")\n", r;
      }
      r = round(script(cached));
      r.out += "agent_copied=1\n";
      return r;
    }));
  }
  PreflightReport report;
  for (size_t i = 0; i < executors.size(); ++i) {
    auto res = results[i].get();
    check_host(plan.hosts[i], res, plan, cwd_required, agents[i]->running(), report);
    if (!executors[i]->is_local()) continue;
    std::vector<int> ports;
    for (const auto& r : plan.ranks)
      if (r.host == plan.hosts[i]) ports.insert(ports.end(), r.ports.begin(), r.ports.end());
    for (int port : busy_local_ports(ports)) report_busy_port(plan, plan.hosts[i], port, report);
  }
  warn_drift("OS", &HostFacts::os, report);
  warn_drift("python", &HostFacts::python, report);
  warn_drift("mlx", &HostFacts::mlx, report);
  // A host whose check failed has no agent either: it stays a failure.
  if (!check) report.problems.clear();
  return report;
}

std::vector<int> busy_local_ports(const std::vector<int>& ports) {
  std::vector<int> busy;
  for (int port : ports)
    if (port_in_use(port)) busy.push_back(port);
  return busy;
}

}  // namespace distkit::launch
