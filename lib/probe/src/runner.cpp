// See runner.hpp. One thread per host: probing is latency-bound (ssh round
// trip, system_profiler), so every host waits at the same time.
#include "distkit/probe/runner.hpp"

#include <optional>
#include <stdexcept>
#include <thread>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"

namespace distkit {
namespace embedded::probes {
std::optional<std::string_view> find(std::string_view name);
}

namespace probe {

namespace {

std::string embedded_probe(std::string_view name) {
  auto s = embedded::probes::find(name);
  if (!s) throw std::logic_error("probe not embedded: " + std::string(name));
  return std::string(*s);
}

std::string describe_exit(const ssh::ExitInfo& e) {
  if (!e.error.empty()) return e.error;
  if (e.signal) return "the probe was killed by signal " + std::to_string(e.signal);
  return "the probe exited with status " + std::to_string(e.exit_status);
}

// Whom a host should find its route to. Remote hosts: the launcher, taken
// from $SSH_CONNECTION by the script (""). This machine: the address the
// user named it by; 127.0.0.1 when every host is local; else unknown (a
// loopback address would be wrong for the other hosts).
std::string launcher_for(const ssh::Executor& ex, const std::string& host, bool all_local) {
  if (!ex.is_local()) return "";
  if (hostfile::is_ip_address(host)) return host;
  return all_local ? "127.0.0.1" : "";
}

ProbeResult probe_one(ssh::Executor& ex, const std::string& host, const std::string& launcher,
                      std::chrono::milliseconds timeout) {
  ProbeResult r;
  r.host = host;
  const std::string boundary = make_boundary();
  auto res =
      ex.run(probe_command(boundary, launcher), {.stdin_data = probe_script(), .timeout = timeout});
  r.raw = std::move(res.out);
  try {
    Capture c = parse_capture(r.raw, host);
    if (c.boundary != boundary)
      throw RemoteError(host, "the probe answered with a foreign boundary");
    r.capture = std::move(c);
    if (!res.exit.ok()) r.error = describe_exit(res.exit);
  } catch (const Error& e) {
    r.error = res.exit.ok() ? e.problem() : describe_exit(res.exit);
  }
  return r;
}

}  // namespace

std::string probe_script() {
  return render_named("distconfig_probe.sh",
                      {{"capture", std::string(template_text("capture_writer.sh"))},
                       {"common", embedded_probe("common.sh")},
                       {"macos", embedded_probe("macos.sh")},
                       {"linux", embedded_probe("linux.sh")}},
                      TemplateMode::shell);
}

std::string probe_command(const std::string& boundary, const std::string& launcher) {
  return std::string(
      trim(render_named("distconfig_probe_command.sh",
                        {{"boundary", boundary}, {"launcher", launcher}}, TemplateMode::shell)));
}

std::vector<ProbeResult> run_probes(const std::vector<std::shared_ptr<ssh::Executor>>& executors,
                                    const std::vector<std::string>& hosts,
                                    std::chrono::milliseconds timeout, const ProbeDone& on_done) {
  std::vector<ProbeResult> results(executors.size());
  std::vector<std::thread> threads;
  bool all_local = true;
  for (const auto& ex : executors) all_local = all_local && (!ex || ex->is_local());
  for (size_t i = 0; i < executors.size(); ++i) {
    results[i].host = i < hosts.size() ? hosts[i] : std::string();
    if (!executors[i]) {
      results[i].error = "not connected";
      continue;
    }
    threads.emplace_back([&, i] {
      try {
        const std::string& host = results[i].host;
        results[i] =
            probe_one(*executors[i], host, launcher_for(*executors[i], host, all_local), timeout);
      } catch (const std::exception& e) {
        results[i].error = e.what();
      }
      if (on_done) on_done(i, results[i]);
    });
  }
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace probe
}  // namespace distkit
