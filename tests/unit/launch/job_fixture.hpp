// Test helpers: a plan of N local ranks and a supervised run of it through
// a real host agent on this machine, with the job's stdout/stderr captured.
#pragma once

#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/launch/plan.hpp"
#include "distkit/launch/supervisor.hpp"
#include "distkit/ssh/local_executor.hpp"

namespace distkit::launch::test {

inline Plan local_plan(int ranks, std::vector<std::string> command) {
  hostfile::Hostfile hf;
  hf.hosts.push_back({"localhost", {"127.0.0.1"}, {}});
  LaunchOptions o;
  o.repeat_hosts = ranks;
  o.command = std::move(command);
  return build_plan(hf, o, nullptr, "test-job");
}

// No live (non-zombie) process left in the group. Zombies are skipped: in
// some containers PID 1 reaps orphans late, and kill(-pgid, 0) still sees them.
inline bool group_gone(int pgid) {
  if (pgid <= 0) return false;
  std::FILE* ps = popen("ps -A -o pgid= -o stat=", "r");
  if (!ps) return false;
  bool alive = false;
  int g;
  char stat[16];
  while (std::fscanf(ps, "%d %15s", &g, stat) == 2) alive = alive || (g == pgid && stat[0] != 'Z');
  pclose(ps);
  return !alive;
}

inline std::string slurp(std::FILE* f) {
  std::string s;
  std::rewind(f);
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  return s;
}

struct Run {
  JobResult result;
  std::string out, err;
  double seconds = 0;
};

inline SuperviseOptions quiet_options() {
  SuperviseOptions o;
  o.stdin_fd = -1;
  o.handle_signals = false;
  o.secret = "00ff";
  o.ranks.grace = std::chrono::milliseconds(1000);
  return o;
}

// Every rank of `plan` on `agent`.
inline Run run_on(const Plan& plan, SuperviseOptions o, std::shared_ptr<AgentClient> agent) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  o.out = out;
  o.err = err;
  std::vector<std::shared_ptr<AgentClient>> per_rank(plan.ranks.size(), agent);
  auto t0 = std::chrono::steady_clock::now();
  Run r;
  r.result = supervise(plan, per_rank, o);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.out = slurp(out);
  r.err = slurp(err);
  std::fclose(out);
  std::fclose(err);
  return r;
}

// The real host agent on this machine.
inline std::string real_agent_command() {
  return std::string("exec ") + DISTKIT_AGENT_PATH + " " + kAgentProtocolFlag + " --host-agent";
}

// An AgentClient on this machine (or on `ex`) running `agent_command` (the
// host agent, or a stand-in) as distlaunch runs one: its channel's first
// request, P, carries the timing of a job whose heartbeat limit is
// `heartbeat_limit`. Returns once the opening is given: a stand-in that
// ends or talks nonsense before its facts leaves no agent, and ranks then
// fail to start.
inline std::shared_ptr<AgentClient> local_agent(std::chrono::seconds heartbeat_limit,
                                                const std::string& agent_command,
                                                long first_rank_wait = kFirstRankWait,
                                                std::shared_ptr<ssh::Executor> ex = nullptr) {
  if (!ex) ex = std::make_shared<ssh::LocalExecutor>("localhost");
  auto agent = std::make_shared<AgentClient>(ex);
  auto opening =
      agent->start_with_preflight("echo '" + std::string(kAgentMarker) + "here'; " + agent_command,
                                  agent_timing(heartbeat_limit.count(), first_rank_wait));
  // A stand-in that neither answers nor ends is closed, so the test fails
  // on its ranks' reason instead of hanging until ctest's timeout.
  if (opening.wait_for(std::chrono::seconds(20)) != std::future_status::ready) agent->abort_agent();
  opening.wait();
  return agent;
}

// A stand-in agent's opening: its hello in this protocol and no facts.
inline std::string stand_in_opening() {
  return "printf 'V " + std::to_string(kAgentProtocol) + " 1.0\\nF 0\\n'; ";
}

// One rank started through `agent` as distlaunch starts each, from its
// encoded start request: its command, its exit, the stderr the agent
// forwards, and its stdout given to `on_stdout` (when set).
struct StartedRank {
  std::unique_ptr<ssh::RunningCommand> cmd;
  std::future<ssh::ExitInfo> exit;
  std::shared_ptr<std::string> err = std::make_shared<std::string>();
};

inline StartedRank start_request(AgentClient& agent, const std::string& request,
                                 std::function<void(std::string_view)> on_stdout = {}) {
  auto promise = std::make_shared<std::promise<ssh::ExitInfo>>();
  StartedRank s;
  s.exit = promise->get_future();
  ssh::StreamHandlers h;
  h.on_stdout = std::move(on_stdout);
  auto err = s.err;
  h.on_stderr = [err](std::string_view c) { err->append(c); };
  h.on_exit = [promise](const ssh::ExitInfo& e) { promise->set_value(e); };
  s.cmd = agent.start_rank(request, std::move(h));
  return s;
}

// Every rank goes through one AgentClient on this machine running
// `agent_command` (the host agent, or a stand-in), as distlaunch runs them.
inline Run run_local(const Plan& plan, SuperviseOptions o = quiet_options(),
                     const std::string& agent_command = real_agent_command()) {
  auto ex = local_agent(std::chrono::seconds(5), agent_command);  // distlaunch's default
  return run_on(plan, std::move(o), ex);
}

}  // namespace distkit::launch::test
