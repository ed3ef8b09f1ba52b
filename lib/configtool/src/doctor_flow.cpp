// See doctor_flow.hpp.
#include "doctor_flow.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "diagnostics.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/netsetup/remote.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/template.hpp"
#include "netsetup_flow.hpp"

namespace distkit::configtool {

// A finding in the --json report: each field under its own name.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Finding, host, check, subject, verdict, evidence, cause, fix)

namespace {

// Connects retry a refused connection this long (a peer's listener may not
// be up yet); listeners stay up until every peer came, at most this long.
constexpr int kRetrySeconds = 4;
constexpr int kListenSeconds = 9;
constexpr std::chrono::milliseconds kScriptTimeout = std::chrono::seconds(40);

size_t index_of(const Gathered& g, const std::string& host) {
  return size_t(std::ranges::find(g.infos, host, &probe::HostInfo::host) - g.infos.begin());
}

bool uses_jaccl(const Options& o, const std::optional<hostfile::Hostfile>& hf, const Gathered& g) {
  auto jaccl = [](const std::string& b) { return b == "jaccl" || b == "jaccl-ring"; };
  if (o.backend) return jaccl(*o.backend);
  if (hf && hf->backend) return jaccl(std::string(hostfile::to_string(*hf->backend)));
  for (const auto& h : g.infos)  // automatic: RDMA devices make jaccl the choice
    if (!h.rdma_devices.empty()) return true;
  return false;
}

// Each cable's two ends, each connecting to the other's address.
void link_hops(const netsetup::Plan& plan, std::vector<Hop>& out) {
  for (const auto& l : plan.links) {
    if (l.cable.a.iface.empty() || l.cable.b.iface.empty()) continue;
    out.push_back({l.cable.a.host, l.cable.a.iface, l.cable.b.host, l.addr_b, "link", true});
    out.push_back({l.cable.b.host, l.cable.b.iface, l.cable.a.host, l.addr_a, "link", true});
  }
}

// A hostfile's ring: rank r connects to every address of rank r+1.
void ring_hops(const hostfile::Hostfile& hf, const Gathered& g, const topology::Topology& t,
               std::vector<Hop>& out) {
  const size_t n = hf.hosts.size();
  for (size_t r = 0; r < n; ++r) {  // one host: it is its own next, no hop
    const auto& me = hf.hosts[r];
    const auto& next = hf.hosts[(r + 1) % n];
    if (me.ssh == next.ssh) continue;
    size_t a = index_of(g, me.ssh), b = index_of(g, next.ssh);
    bool cabled = a < t.count.size() && b < t.count.size() && t.count[a][b] > 0;
    for (const auto& ip : next.ips) out.push_back({me.ssh, "", next.ssh, ip, "ring", cabled});
  }
}

void coordinator_hops(const std::optional<hostfile::Hostfile>& hf, const Gathered& g,
                      std::vector<Hop>& out) {
  std::string host0 = hf ? hf->hosts.front().ssh : g.infos.front().host;
  std::string addr;
  if (hf && !hf->hosts.front().ips.empty()) addr = hf->hosts.front().ips.front();
  size_t i0 = index_of(g, host0);
  if (addr.empty() && i0 < g.infos.size()) addr = g.infos[i0].management_address();
  if (addr.empty()) return;
  for (const auto& info : g.infos)
    if (info.host != host0) out.push_back({info.host, "", host0, addr, "coordinator", false});
}

// The job's ports: the ring takes one per (host, address) from --job-port
// on (distlaunch, one connection per address), jaccl's coordinator the first.
void check_test_port(const Options& o, const std::optional<hostfile::Hostfile>& hf,
                     const Gathered& g, const netsetup::Plan& plan) {
  long ring = 0;
  if (hf) {
    for (const auto& h : hf->hosts) ring += std::max<long>(1, long(h.ips.size()));
  } else {
    size_t most = 1;
    for (const auto& info : g.infos)
      most = std::max(most, netsetup::links_of(plan, info.host).size());
    ring = long(g.infos.size() * most);
  }
  long last = o.job_port + std::max<long>(ring, 1) - 1;
  if (o.test_port >= o.job_port && o.test_port <= last)
    throw UsageError("--test-port",
                     std::to_string(o.test_port) + " is one of the job's ports (" +
                         std::to_string(o.job_port) + "-" + std::to_string(last) +
                         ": the ring's and the jaccl coordinator's, from --job-port)",
                     "pick a port outside that range, e.g. " + std::to_string(o.job_port - 1));
}

// The warnings and failures as Problems (kind: the check; the subject
// names the host) for the JSON's "problems"; the table and "Causes and
// fixes" say the same for people, so they are not printed again.
std::vector<Problem> problems_of(const std::vector<Finding>& fs) {
  std::vector<Problem> out;
  for (const auto& f : fs)
    if (f.verdict != "ok")
      out.push_back({f.subject.rfind(f.host, 0) == 0 ? f.subject : f.host + " " + f.subject,
                     f.check, f.cause, f.fix,
                     f.verdict == "fail" ? Severity::error : Severity::warning});
  return out;
}

}  // namespace

std::string link_check_script(const Options& o, const std::string& host,
                              const std::vector<Hop>& hops, const std::vector<size_t>& mine,
                              bool rdma, bool tb_speed, long sample_bytes,
                              const std::string& state_file) {
  std::vector<std::string> listen;
  int incoming = 0;
  for (const auto& h : hops)
    if (h.peer == host) {
      incoming += 3;  // each connector connects three times (doctor_host.sh)
      if (!std::ranges::count(listen, h.address)) listen.push_back(h.address);
    }
  std::string lines;
  for (size_t k = 0; k < mine.size(); ++k) {
    const Hop& h = hops[mine[k]];
    std::string i = std::to_string(k);
    lines += "section route_" + i + " route_get " + shell_quote(h.address) + "\n";
    if (!h.iface.empty()) {
      lines += "section link_" + i + " link_show " + shell_quote(h.iface) + "\n";
      lines += "section speed_" + i + " link_speed " + shell_quote(h.iface) + "\n";
    }
    lines += "section connect_" + i + " tcp_check " + shell_quote(h.address) + "\n";
  }
  // The location wherever networksetup is (every Mac; a test host answers
  // from its captures), with the state file's record to compare it with.
  std::string host_checks =
      "section uname uname -s\nsection daemons daemon_files\n"
      "section location need networksetup -getcurrentlocation\n";
  if (!state_file.empty()) host_checks += "section state cat " + shell_quote(state_file) + "\n";
  if (rdma) host_checks += "section ibv_devinfo_v need ibv_devinfo -v\n";
  if (tb_speed) host_checks += "section tb_json need system_profiler SPThunderboltDataType -json\n";
  // Files of network daemons known to undo a setup (exo's LaunchDaemon and
  // its script, exo#2067/#2279), for the host script to look for.
  const std::string daemon_files =
      shell_join({"/Library/LaunchDaemons/io.exo.networksetup.plist",
                  "/Library/Application Support/EXO/disable_bridge_enable_dhcp.sh",
                  "/Library/Application Support/EXO/disable_bridge.sh"});
  return render_named("doctor_host.sh",
                      {{"capture", std::string(template_text("capture_writer.sh"))},
                       {"host", host},
                       {"port", std::to_string(o.test_port)},
                       {"sample_bytes", std::to_string(sample_bytes)},
                       {"daemon_files", daemon_files},
                       {"incoming", std::to_string(incoming)},
                       {"lifetime", std::to_string(kListenSeconds)},
                       {"retry", std::to_string(kRetrySeconds)},
                       {"listen", shell_join(listen)},
                       {"hops", lines},
                       {"host_checks", host_checks}},
                      TemplateMode::shell);
}

// The ports' and --count's ranges are the CLI's (whole_number).
void check_doctor_flags(const Options& o) {
  if (o.watch && !(*o.watch >= 0.1 && *o.watch <= 86400))  // NaN too
    throw UsageError("--watch", "the interval must be 0.1 to 86400 seconds", "e.g. --watch 30");
  if ((o.count || o.fail_on_drift) && !o.watch)
    throw UsageError(o.count ? "--count" : "--fail-on-drift", "only applies with --watch",
                     "add --watch SECONDS");
  if (o.json && o.watch)
    throw UsageError("--json", "--watch writes its JSON lines to --history",
                     "read the history file (one JSON object per line)");
  if (o.doctor && o.watch)
    throw UsageError("--doctor", "cannot be combined with --watch", "run one, then the other");
  if (!o.doctor && !o.watch) return;
  const char* flag = o.doctor ? "--doctor" : "--watch";
  if (o.over == "ethernet")
    throw UsageError(flag, "checks the Thunderbolt links",
                     "use --over thunderbolt (the default), with --links for named interfaces");
  if (o.from_probes)
    throw UsageError(flag, "needs the hosts themselves, not saved probes", "drop --from-probes");
  if (o.auto_setup.value_or(false) || o.verify || o.teardown || o.check || o.dot || o.matrix)
    throw UsageError(flag, "cannot be combined with setup, --verify, --check, --dot or --matrix",
                     "run it on its own");
}

LinkChecks plan_link_checks(const Options& o, const Gathered& g, const topology::Topology& t,
                            const netsetup::Plan& plan) {
  std::optional<hostfile::Hostfile> hf;
  if (o.hostfile) hf = hostfile::load(*o.hostfile);
  check_test_port(o, hf, g, plan);
  LinkChecks lc;
  bool hf_ring = hf && (!hf->backend || *hf->backend == hostfile::Backend::ring ||
                        *hf->backend == hostfile::Backend::none);
  bool has_ips = hf && std::all_of(hf->hosts.begin(), hf->hosts.end(),
                                   [](const hostfile::Host& h) { return !h.ips.empty(); });
  link_hops(plan, lc.hops);
  if (hf_ring && has_ips) ring_hops(*hf, g, t, lc.hops);
  if (uses_jaccl(o, hf, g)) coordinator_hops(hf, g, lc.hops);
  // Hops from a host that was not probed (left out) cannot run.
  std::erase_if(lc.hops, [&](const Hop& h) { return index_of(g, h.host) == g.infos.size(); });
  lc.by_host.resize(g.infos.size());
  lc.tb_ifaces.resize(g.infos.size());
  for (size_t i = 0; i < lc.hops.size(); ++i) lc.by_host[index_of(g, lc.hops[i].host)].push_back(i);
  for (size_t k = 0; k < t.hosts.size() && k < lc.tb_ifaces.size(); ++k)
    for (const auto& p : t.hosts[k].ports)
      if (!p.iface.empty()) lc.tb_ifaces[k].insert(p.iface);
  return lc;
}

std::vector<HostResult> run_link_checks(const Options& o, const Gathered& g, const LinkChecks& lc,
                                        bool rdma, long sample_bytes) {
  std::vector<std::string> scripts;
  for (size_t i = 0; i < g.infos.size(); ++i)
    scripts.push_back(link_check_script(o, g.infos[i].host, lc.hops, lc.by_host[i], rdma,
                                        !rdma && g.infos[i].has_thunderbolt, sample_bytes,
                                        netsetup_target(o, g.infos[i]).state_file));
  auto results = netsetup::run_scripts(
      g.executors, scripts, "/bin/sh -s -- " + shell_quote(probe::make_boundary()), kScriptTimeout);
  std::vector<HostResult> out;
  for (size_t i = 0; i < g.infos.size(); ++i) {
    const auto& host = g.infos[i].host;
    std::vector<Hop> mine;
    for (size_t k : lc.by_host[i]) mine.push_back(lc.hops[k]);
    HostResult r;
    r.host = host;
    try {
      if (!results[i].exit.error.empty()) throw RemoteError(host, results[i].exit.error);
      r = read_host_result(host, probe::parse_capture(results[i].out, host), mine,
                           g.infos[i].hardware_ports);
      r.state_file = netsetup_target(o, g.infos[i]).state_file;
    } catch (const Error& e) {
      r.error = e.what();
    }
    out.push_back(std::move(r));
  }
  return out;
}

int run_doctor(const Options& o, Services& s, Gathered& g, const topology::Topology& t,
               const netsetup::Plan& plan) {
  auto lc = plan_link_checks(o, g, t, plan);
  verbose(o, s, fmt::format("checking {} hop(s) on port {}", lc.hops.size(), o.test_port));
  auto results = run_link_checks(o, g, lc, true, 0);
  std::vector<Finding> fs;
  auto add = [&fs](std::vector<Finding> more) { fs.insert(fs.end(), more.begin(), more.end()); };
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    if (!r.error.empty()) {
      fs.push_back({r.host, "host", r.host, "fail", r.error, "the checks could not run here",
                    "check SSH access and that /bin/sh and perl work"});
      continue;
    }
    std::vector<Hop> mine;
    for (size_t k : lc.by_host[i]) mine.push_back(lc.hops[k]);
    add(judge_hops(mine, r, lc.tb_ifaces[i], o.test_port));
    add(judge_host(r));
    add(judge_rdma(r, std::vector<std::string>(lc.tb_ifaces[i].begin(), lc.tb_ifaces[i].end())));
    for (const auto& n : r.not_listening)
      note(s, r.host + " could not listen on " + n + " (peers' connects to it fail)");
  }
  if (!o.links) add(judge_speeds(t));
  return report_findings(o, s.out, fs, s.problems);
}

int report_findings(const Options& o, std::ostream& out, const std::vector<Finding>& fs,
                    std::vector<Problem> problems) {
  int failed = 0, warned = 0;
  for (const auto& f : fs) failed += f.verdict == "fail", warned += f.verdict == "warn";
  if (o.json) {
    nlohmann::json j{{"schema", "distkit.doctor/1"},
                     {"test_port", o.test_port},
                     {"ok", failed == 0},
                     {"failed", failed},
                     {"warnings", warned},
                     {"findings", fs}};
    for (auto& p : problems_of(fs)) problems.push_back(std::move(p));
    j["problems"] = to_json(problems);
    out << j.dump(2) << "\n";
    return failed ? 1 : 0;
  }
  std::vector<std::vector<std::string>> rows{{"VERDICT", "HOST", "CHECK", "SUBJECT", "EVIDENCE"}};
  for (const auto& f : fs) rows.push_back({f.verdict, f.host, f.check, f.subject, f.evidence});
  print_table(out, rows);
  bool first = true;
  for (const auto& f : fs) {
    if (f.verdict == "ok") continue;
    if (first) out << "\nCauses and fixes:\n", first = false;
    out << f.verdict << ": " << f.host << " " << f.check << " " << f.subject << ": " << f.cause
        << "\n  fix: " << f.fix << "\n";
  }
  out << "\ndoctor: " << fs.size() << " check(s), " << failed << " failed, " << warned
      << " warning(s)\n";
  return failed ? 1 : 0;
}

}  // namespace distkit::configtool
