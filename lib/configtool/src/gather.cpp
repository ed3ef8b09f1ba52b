// See gather.hpp.
#include "gather.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <chrono>

#include "diagnostics.hpp"
#include "distkit/hostfile/host_list.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/probe/probe_files.hpp"
#include "distkit/probe/runner.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/progress.hpp"

namespace distkit::configtool {

namespace {

constexpr auto kProbeTimeout = std::chrono::seconds(120);

std::vector<std::optional<probe::Capture>> replay(const Options& o,
                                                  const std::vector<std::string>& hosts,
                                                  std::vector<Problem>& failed) {
  std::vector<std::optional<probe::Capture>> out;
  for (const auto& h : hosts) {
    try {
      out.push_back(probe::load_capture(*o.from_probes, h));
      if (!out.back())
        failed.push_back({h, "probe-failed", "no saved probe in " + o.from_probes->string(), ""});
    } catch (const Error& e) {
      out.emplace_back();
      failed.push_back({h, "probe-failed", e.what(), ""});
    }
  }
  return out;
}

std::vector<std::optional<probe::Capture>> probe_live(const Options& o, Services& s,
                                                      const std::vector<std::string>& hosts,
                                                      std::vector<Problem>& failed,
                                                      ssh::Connections& conns) {
  auto t0 = std::chrono::steady_clock::now();
  // Per-host progress on stderr: live on a TTY, lines under --verbose.
  ProgressBoard board(hosts, "probing", stderr, choose_progress_mode(stderr, o.verbose));
  for (size_t i = 0; i < hosts.size(); ++i) board.set(i, HostState::connecting);
  conns = s.connect(hosts, {.ssh_config = o.ssh_config, .verbose = o.verbose});
  for (size_t i = 0; i < hosts.size(); ++i)
    if (i < conns.executors.size() && conns.executors[i]) board.set(i, HostState::working);
  for (const auto& e : conns.errors) {
    // ssh's message names the host first ("<host>: ..."), as the subject does.
    bool named = e.message.rfind(e.host + ": ", 0) == 0;
    failed.push_back(
        {e.host, "unreachable", named ? e.message.substr(e.host.size() + 2) : e.message, ""});
    for (size_t i = 0; i < hosts.size(); ++i)
      if (hosts[i] == e.host) board.set(i, HostState::failed, e.kind);
  }
  auto results = probe::run_probes(conns.executors, hosts, kProbeTimeout,
                                   [&board](size_t i, const probe::ProbeResult& r) {
                                     if (r.capture)
                                       board.set(i, HostState::done);
                                     else
                                       board.set(i, HostState::failed, r.error);
                                   });
  board.finish();
  std::vector<std::optional<probe::Capture>> out;
  for (auto& r : results) {
    bool connected = r.error != "not connected";
    if (o.save_probes && connected && !r.raw.empty())
      probe::save_capture(*o.save_probes, r.host, r.raw);
    if (!r.error.empty() && connected) {
      if (r.capture)
        report(s, {{r.host, "probe-incomplete", r.error, "using what the probe printed",
                    Severity::warning}});
      else
        failed.push_back({r.host, "probe-failed", r.error, ""});
    }
    out.push_back(std::move(r.capture));
  }
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  verbose(o, s, fmt::format("probed {} host(s) in {} ms", hosts.size(), ms.count()));
  return out;
}

}  // namespace

std::vector<std::string> resolve_hosts(const Options& o) {
  std::vector<std::string> names;
  if (o.hostfile) {
    // A host listed again (one more rank on it) is probed once.
    for (const auto& h : hostfile::load(*o.hostfile).hosts)
      if (std::find(names.begin(), names.end(), h.ssh) == names.end()) names.push_back(h.ssh);
  } else {
    // distconfig has no -n: each host is probed once whatever its ranks.
    for (const auto& h : hostfile::parse_host_list(o.hosts, "--hosts", "list each host once"))
      names.push_back(h.ssh);
  }
  return names;
}

Gathered gather(const Options& o, Services& s, const std::vector<std::string>& hosts) {
  std::vector<Problem> failed;
  ssh::Connections conns;
  auto captures = o.from_probes ? replay(o, hosts, failed) : probe_live(o, s, hosts, failed, conns);
  // --check reports on the hosts that answered, the others its errors.
  for (auto& f : failed) f.severity = o.ignore_unreachable ? Severity::warning : Severity::error;
  report(s, failed);
  if (!failed.empty() && !o.ignore_unreachable && !o.check)
    throw RemoteError("hosts", std::to_string(failed.size()) + " host(s) unreachable",
                      "fix them or pass --ignore-unreachable to go on without them");
  if (!failed.empty() && o.ignore_unreachable)
    report(s, {{"--ignore-unreachable", "left-out", "going on without the unreachable host(s)", "",
                Severity::warning}});
  Gathered g;
  for (size_t i = 0; i < hosts.size(); ++i) {
    if (!captures[i]) continue;
    g.infos.push_back(probe::build_host_info(hosts[i], *captures[i]));
    for (const auto& n : g.infos.back().notes)
      report(s, {{hosts[i], "probe-note", n, "", Severity::warning}});
    g.captures.push_back(std::move(*captures[i]));
    g.executors.push_back(i < conns.executors.size() ? conns.executors[i] : nullptr);
  }
  if (g.infos.empty())
    throw RemoteError("hosts", "no host could be probed", "check the host names and SSH access");
  return g;
}

}  // namespace distkit::configtool
