// Preflight checks (contract in preflight.hpp). One rendered script per host
// answers with key=value lines; the decisions are taken here.
#include "distkit/launch/preflight.hpp"

#include <algorithm>
#include <cstdlib>
#include <future>
#include <set>

#include "distkit/util/port_in_use.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

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

void check_host(const std::string& host, const ssh::CommandResult& res, const Plan& plan,
                bool cwd_required, PreflightReport& report) {
  auto kv = parse_facts(res.out);
  report.hosts[host] = {kv["os"], kv["python"], kv["mlx"], kv["git"], kv["helper"],
                        res.exit.error.empty()};
  if (!res.exit.error.empty()) {
    report.failures.push_back(host + ": preflight failed (" + res.exit.error +
                              "); check the host or use --no-preflight");
    return;
  }
  // A distlaunch-rank that failed the check (another distkit version, or
  // not runnable there): the ranks still run, through the slower wrappers.
  if (kv["helper"].empty() && !kv["helper_refused"].empty())
    report.warnings.push_back(host + ": " + kv["helper_refused"] +
                              " failed the check (another distkit version?); its ranks use the "
                              "perl or sh wrapper; install the same distkit version there");
  if (kv["cmd"] == "missing")
    report.problems.push_back(host + ": command '" + plan.command.front() +
                              "' not found; install it there or give its full path");
  if (cwd_required && kv["cwd"] == "missing")
    report.problems.push_back(host + ": directory '" + plan.cwd.value_or("") +
                              "' does not exist; create it there or fix --cwd");
  for (auto word : split_words(kv["busy"]))
    report_busy_port(plan, host, std::atoi(std::string(word).c_str()), report);
}

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

PreflightReport run_preflight(const Plan& plan,
                              const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                              bool cwd_required, bool check, bool want_commit,
                              const std::vector<std::string>& helpers,
                              const std::vector<std::shared_ptr<HostAgentExecutor>>& agents,
                              long agent_idle) {
  const auto timeout = std::chrono::milliseconds(20000);
  const std::string& cmd = plan.command.front();
  std::vector<std::future<ssh::CommandResult>> results;
  for (size_t i = 0; i < executors.size(); ++i) {
    // This machine's ports are tried here, directly (no perl needed).
    bool local = executors[i]->is_local();
    auto agent = i < agents.size() ? agents[i] : nullptr;
    std::string script = render_named("launch_preflight.sh",
                                      {{"cwd", plan.cwd.value_or("")},
                                       {"cmd", cmd},
                                       {"git", want_commit ? "1" : "0"},
                                       {"python", is_python(cmd) ? cmd : ""},
                                       {"ports", local ? "" : ports_of(plan, plan.hosts[i])},
                                       {"helpers", shell_join(helpers)},
                                       {"agent", agent ? std::to_string(agent_idle) : ""}},
                                      TemplateMode::shell);
    if (agent) {
      results.push_back(std::async(std::launch::async, [agent, script, timeout] {
        auto done = agent->start_with_preflight(script);
        if (done.wait_for(timeout) == std::future_status::ready) return done.get();
        agent->abort_agent();  // no agent then, even if it said hello meanwhile
        auto r = done.get();
        r.exit = {};
        r.exit.error = "timed out after " + std::to_string(timeout.count() / 1000) + " s";
        return r;
      }));
      continue;
    }
    results.push_back(std::async(std::launch::async, [ex = executors[i], script, timeout] {
      ssh::RunOptions ro;
      ro.timeout = timeout;
      return ex->run(script, ro);
    }));
  }
  PreflightReport report;
  for (size_t i = 0; i < executors.size(); ++i) {
    auto res = results[i].get();
    check_host(plan.hosts[i], res, plan, cwd_required, report);
    // The helper passed the check but did not start as the agent: one from
    // before the agent (same protocol otherwise). Its ranks get a channel each.
    const std::string& helper = report.hosts[plan.hosts[i]].helper;
    if (i < agents.size() && agents[i] && !agents[i]->running() && res.exit.ok() && !helper.empty())
      report.warnings.push_back(plan.hosts[i] + ": " + helper +
                                " did not start as the host agent (another distkit version?); "
                                "its ranks get a channel each; install the same distkit version "
                                "there");
    if (!executors[i]->is_local()) continue;
    std::vector<int> ports;
    for (const auto& r : plan.ranks)
      if (r.host == plan.hosts[i]) ports.insert(ports.end(), r.ports.begin(), r.ports.end());
    for (int port : busy_local_ports(ports)) report_busy_port(plan, plan.hosts[i], port, report);
  }
  warn_drift("OS", &HostFacts::os, report);
  warn_drift("python", &HostFacts::python, report);
  warn_drift("mlx", &HostFacts::mlx, report);
  if (!check) {
    report.problems.clear();
    report.failures.clear();
  }
  return report;
}

std::vector<int> busy_local_ports(const std::vector<int>& ports) {
  std::vector<int> busy;
  for (int port : ports)
    if (port_in_use(port)) busy.push_back(port);
  return busy;
}

}  // namespace distkit::launch
