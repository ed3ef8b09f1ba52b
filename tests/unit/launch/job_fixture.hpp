// Test helpers: a plan of N local ranks and a supervised run of it through
// real LocalExecutor processes, with the job's stdout/stderr captured.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

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
  o.wrapper.grace = std::chrono::milliseconds(1000);
  return o;
}

inline Run run_local(const Plan& plan, SuperviseOptions o = quiet_options()) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  o.out = out;
  o.err = err;
  auto ex = std::make_shared<ssh::LocalExecutor>("localhost");
  std::vector<std::shared_ptr<ssh::Executor>> per_rank(plan.ranks.size(), ex);
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

}  // namespace distkit::launch::test
