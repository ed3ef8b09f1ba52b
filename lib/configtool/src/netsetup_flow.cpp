// See netsetup_flow.hpp. Hosts are handled in parallel (netsetup::run_scripts);
// every outcome is reported per host, then one error line sums them up.
#include "netsetup_flow.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <functional>

#include <nlohmann/json.hpp>

#include "diagnostics.hpp"
#include "distkit/netsetup/from_topology.hpp"
#include "distkit/netsetup/outcome.hpp"
#include "distkit/netsetup/remote.hpp"
#include "distkit/probe/capture.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/shell_quote.hpp"

namespace distkit::configtool {

namespace {

using netsetup::Os;

constexpr std::chrono::milliseconds kSetupTimeout = std::chrono::seconds(60);

netsetup::SetupOptions setup_options(const Options& o) {
  return {.bridge = o.bridge_down ? netsetup::BridgeMode::down : netsetup::BridgeMode::take_out,
          .persist = o.persist};
}

// Addresses with prefixes from a probe capture (no routes: the probe does
// not list the routing table).
netsetup::HostNet from_capture(const probe::Capture& c) {
  netsetup::HostNet n;
  if (const auto* sec = c.ok("ip_addr"))
    n.addresses = netsetup::parse_ip_addr_cidrs(sec->output);
  else if (const auto* sec2 = c.ok("ifconfig"))
    n.addresses = netsetup::parse_ifconfig_cidrs(sec2->output);
  return n;
}

netsetup::HostNet from_state(const probe::Capture& c, Os os) {
  netsetup::HostNet n;
  if (const auto* a = c.ok("addrs"))
    n.addresses = os == Os::macOS ? netsetup::parse_ifconfig_cidrs(a->output)
                                  : netsetup::parse_ip_addr_cidrs(a->output);
  if (const auto* r = c.ok("routes"))
    n.routes = os == Os::macOS ? netsetup::parse_netstat_routes(r->output)
                               : netsetup::parse_ip_routes(r->output);
  if (const auto* st = c.ok("state")) n.records = netsetup::parse_state_records(st->output);
  return n;
}

// True when a flag asks for network setup work on the hosts themselves.
bool wants_live_netsetup(const Options& o) {
  return o.over != "ethernet" &&
         (o.auto_setup.value_or(false) || o.verify || o.teardown || o.doctor || o.watch);
}

// A host's script, made for its target.
using ScriptFn = std::function<std::string(const netsetup::HostTarget&)>;

// Runs one script per host, with the per-host progress board on stderr
// (live on a TTY, lines under --verbose, else nothing).
std::vector<ssh::CommandResult> run_on_hosts(const Options& o, const Gathered& g,
                                             const std::vector<std::shared_ptr<ssh::Executor>>& ex,
                                             const ScriptFn& script, const std::string& command,
                                             const char* verb) {
  std::vector<std::string> names, scripts;
  for (const auto& info : g.infos) {
    names.push_back(info.host);
    scripts.push_back(script(netsetup_target(o, info)));
  }
  ProgressBoard board(names, verb, stderr, choose_progress_mode(stderr, o.verbose));
  return netsetup::run_scripts(ex, scripts, command, kSetupTimeout, &board);
}

void emit_scripts(const Options& o, Services& s, const Gathered& g, const netsetup::Plan& plan) {
  if (!o.emit_scripts) return;  // its directory is made before probing
  for (const auto& info : g.infos) {
    auto h = netsetup_target(o, info);
    auto base = *o.emit_scripts / info.host;
    write_file_atomic(base.string() + ".setup.sh",
                      netsetup::setup_script(h, plan, setup_options(o)), 0755);
    write_file_atomic(base.string() + ".teardown.sh", netsetup::teardown_script(h), 0755);
    write_file_atomic(base.string() + ".verify.sh", netsetup::verify_script(h, plan, o.verify_port),
                      0755);
  }
  note(s, "wrote <host>.setup.sh, .teardown.sh and .verify.sh for " +
              std::to_string(g.infos.size()) + " host(s) in " + o.emit_scripts->string() +
              " (run as root: sudo sh <host>.setup.sh)");
}

void print_commands(const Options& o, Services& s, const probe::HostInfo& info,
                    const netsetup::Plan& plan) {
  const std::string title = "Setup for " + info.host;
  s.err << title << "\n"
        << std::string(title.size(), '=') << "\n"
        << netsetup::setup_commands(netsetup_target(o, info), plan, setup_options(o)) << "\n";
}

// Reports each host's outcome of `action`; returns how many hosts failed.
int report_outcomes(Services& s, const std::vector<netsetup::HostOutcome>& outcomes,
                    const std::string& action) {
  int bad_hosts = 0;
  for (const auto& r : outcomes) {
    bad_hosts += !r.ok();
    std::vector<Problem> ps;
    for (const auto& st : r.steps)
      if (st.verdict == "failed") ps.push_back({r.host, "step-failed", st.what, ""});
    int changed = r.count("changed"), failed = r.count("failed");
    std::string kind = action + "-failed";
    if (!r.error.empty())
      ps.push_back({r.host, kind, r.error, ""});
    else if (failed)
      ps.push_back(
          {r.host, kind,
           fmt::format("{} failed ({} step(s) failed, {} changed)", action, failed, changed), ""});
    report(s, ps);
    if (!ps.empty()) continue;
    if (changed == 0 && action == "teardown")
      note(s, r.host + ": nothing left to undo");
    else if (changed == 0)
      note(s, r.host + ": nothing to change (" + std::to_string(r.count("same")) +
                  " step(s) already done)");
    else
      note(s, r.host + ": " + std::to_string(changed) +
                  (action == "teardown" ? " change(s) undone" : " change(s) made"));
  }
  return bad_hosts;
}

nlohmann::json steps_json(const std::vector<netsetup::HostOutcome>& rs) {
  auto arr = nlohmann::json::array();
  for (const auto& r : rs) {
    auto steps = nlohmann::json::array();
    for (const auto& st : r.steps) steps.push_back({{"verdict", st.verdict}, {"what", st.what}});
    arr.push_back({{"host", r.host},
                   {"ok", r.ok()},
                   {"error", r.error},
                   {"changed", r.count("changed")},
                   {"steps", steps}});
  }
  return arr;
}

// Runs `script` as root on the hosts that can (passwordless sudo or root);
// the others are listed with what to do by hand.
std::vector<netsetup::HostOutcome> run_as_root(const Options& o, Services& s, Gathered& g,
                                               const ScriptFn& script, const netsetup::Plan* plan) {
  std::vector<std::shared_ptr<ssh::Executor>> ex = g.executors;
  std::vector<netsetup::HostOutcome> out;
  for (size_t i = 0; i < g.infos.size(); ++i)
    if (g.infos[i].passwordless_sudo == false) {
      ex[i] = nullptr;
      if (plan) print_commands(o, s, g.infos[i], *plan);
    }
  auto results = run_on_hosts(o, g, ex, script, netsetup::root_command(),
                              plan ? "setting up" : "tearing down");
  const std::string by_hand =
      "no passwordless sudo; run " +
      std::string(plan ? "the commands above" : "the teardown script (--emit-scripts)") +
      " on it by hand, or allow passwordless sudo";
  for (size_t i = 0; i < g.infos.size(); ++i)
    out.push_back(ex[i] ? netsetup::read_outcome(g.infos[i].host, results[i])
                        : netsetup::HostOutcome{g.infos[i].host, {}, by_hand});
  return out;
}

// The peer end of `me`'s cable, for naming a hop.
std::string peer_name(const netsetup::Plan& plan, const std::string& host,
                      const std::string& iface) {
  for (const auto& l : plan.links) {
    if (l.cable.a == netsetup::Endpoint{host, iface}) return l.cable.b.str();
    if (l.cable.b == netsetup::Endpoint{host, iface}) return l.cable.a.str();
  }
  return "?";
}

struct VerifyResult {
  int failed = 0, total = 0;
  nlohmann::json links = nlohmann::json::array();
};

VerifyResult verify(const Options& o, Services& s, Gathered& g, const netsetup::Plan& plan) {
  auto script = [&](const auto& h) { return netsetup::verify_script(h, plan, o.verify_port); };
  auto results = run_on_hosts(o, g, g.executors, script, "/bin/sh -s", "verifying");
  VerifyResult vr;
  for (size_t i = 0; i < g.infos.size(); ++i) {
    auto v = netsetup::read_verify(g.infos[i].host, results[i]);
    if (!v.error.empty()) {
      report(s, {{v.host, "verify-failed", "verify could not run: " + v.error, ""}});
      ++vr.failed;
      vr.links.push_back({{"host", v.host}, {"ok", false}, {"error", v.error}});
      continue;
    }
    for (const auto& n : v.not_listening)
      note(s, "verify: " + v.host + " could not listen on " + n +
                  " (peers' checks reach whatever listens there, or fail)");
    for (const auto& l : v.links) {
      ++vr.total;
      std::string peer = peer_name(plan, v.host, l.iface);
      std::string hop = v.host + ":" + l.iface + " -> " + peer + " (" + l.peer + ") port " +
                        std::to_string(o.verify_port);
      std::string cause = netsetup::likely_cause(l, o.verify_port);
      bool good = cause.empty();
      if (good)
        note(s, "verify: " + hop + ": ok over " + l.route_iface);
      else {
        ++vr.failed;
        report(s, {{hop, "verify-failed", "verify FAILED: " + cause, ""}});
      }
      vr.links.push_back({{"host", v.host},
                          {"iface", l.iface},
                          {"peer", peer},
                          {"peer_address", l.peer},
                          {"route_iface", l.route_iface},
                          {"ok", good},
                          {"detail", l.detail},
                          {"cause", cause}});
    }
  }
  if (!vr.failed) note(s, "verify: all " + std::to_string(vr.total) + " link check(s) passed");
  return vr;
}

void verify_failed(const VerifyResult& v) {
  if (v.failed)
    throw RemoteError("verify", fmt::format("{} of {} link check(s) failed", v.failed, v.total),
                      "see the hops named above");
}

void print_json(Services& s, const std::string& action, const netsetup::Plan* plan,
                const nlohmann::json& hosts, const nlohmann::json& links, bool ok) {
  nlohmann::json j{{"schema", "distkit.netsetup/1"},
                   {"action", action},
                   {"ok", ok},
                   {"hosts", hosts},
                   {"links", links},
                   {"problems", to_json(s.problems)}};
  if (plan) {
    j["subnet"] = plan->subnet.str();
    auto cables = nlohmann::json::array();
    for (const auto& l : plan->links)
      cables.push_back({{"a", l.cable.a.str()},
                        {"b", l.cable.b.str()},
                        {"network", l.net.str()},
                        {"a_address", l.addr_a},
                        {"b_address", l.addr_b}});
    j["plan"] = cables;
    j["skipped"] = plan->skips;
  }
  s.out << j.dump(2) << "\n";
}

}  // namespace

netsetup::HostTarget netsetup_target(const Options& o, const probe::HostInfo& info) {
  bool mac = info.uname.kernel.empty() ? info.macos : info.uname.kernel == "Darwin";
  Os os = mac ? Os::macOS : Os::Linux;
  return {info.host, os, netsetup::state_file_for(os, info.host, o.state_file)};
}

void check_netsetup_flags(const Options& o) {
  if (!o.subnet.empty()) netsetup::parse_subnet(o.subnet, "--subnet");
  if (o.over == "ethernet" && (o.links || o.verify || o.teardown || o.persist || o.emit_scripts))
    throw UsageError(o.links ? "--links" : "--over ethernet",
                     "network setup is for point-to-point cables",
                     "use --over thunderbolt (the default) with --links for named interfaces");
  if (o.teardown && (o.auto_setup.value_or(false) || o.verify || o.persist))
    throw UsageError("--teardown", "cannot be combined with --auto-setup, --verify or --persist",
                     "run the teardown on its own");
  if (o.persist && !o.auto_setup.value_or(false) && !o.emit_scripts)
    throw UsageError("--persist", "only applies with --auto-setup or --emit-scripts",
                     "add --auto-setup");
  // The setup runs in the SSH login's directory, the --persist boot job in
  // /: a relative path would be two files, and teardown would read one.
  if (!o.state_file.empty() && o.state_file[0] != '/')
    throw UsageError("--state-file", quote(o.state_file) + " is not an absolute path",
                     "give one from /, e.g. /var/lib/distkit/netsetup-%h.state");
  if (o.from_probes && wants_live_netsetup(o))
    throw UsageError(o.teardown                                  ? "--teardown"
                     : o.verify && !o.auto_setup.value_or(false) ? "--verify"
                                                                 : "--auto-setup",
                     "needs the hosts themselves, not saved probes", "drop --from-probes");
  if (o.json && o.auto_setup.value_or(false) && !o.output_hostfile)
    throw UsageError("--json", "the report and the hostfile would both go to stdout",
                     "add --output-hostfile FILE");
  if (o.links)
    netsetup::parse_links(read_file(*o.links), o.links->string());  // fail before probing
}

topology::Topology links_topology(const Options& o, Services& s,
                                  const std::vector<probe::HostInfo>& infos) {
  std::string src = o.links->string();
  auto cables = netsetup::parse_links(read_file(*o.links), src);
  netsetup::check_link_hosts(cables, resolve_hosts(o), src);
  std::vector<std::string> names;
  for (const auto& i : infos) names.push_back(i.host);
  // Hosts left out by --ignore-unreachable take their cables with them.
  std::vector<netsetup::Cable> kept;
  for (const auto& c : cables) {
    if (std::ranges::count(names, c.a.host) && std::ranges::count(names, c.b.host))
      kept.push_back(c);
    else
      report(s, {{c.a.str() + " <-> " + c.b.str(), "cable-left-out",
                  "left out: a host is unreachable", "", Severity::warning}});
  }
  return netsetup::topology_from_cables(names, kept);
}

netsetup::Plan plan_network(const Options& o, Services& s, Gathered& g,
                            const topology::Topology& t) {
  std::map<std::string, netsetup::HostNet> nets;
  // Saved probes cannot answer: check_netsetup_flags refuses them here.
  bool query = wants_live_netsetup(o);
  std::vector<ssh::CommandResult> results;
  if (query)
    results =
        run_on_hosts(o, g, g.executors, netsetup::state_script,
                     "/bin/sh -s -- " + shell_quote(probe::make_boundary()), "reading addresses");
  for (size_t i = 0; i < g.infos.size(); ++i) {
    const auto& info = g.infos[i];
    nets[info.host] = from_capture(g.captures[i]);
    if (!query) continue;
    try {
      if (!results[i].exit.error.empty()) throw RemoteError(info.host, results[i].exit.error);
      nets[info.host] =
          from_state(probe::parse_capture(results[i].out, info.host), netsetup_target(o, info).os);
      // The doctor and the watch check the links as they are set up: a
      // stray route over a link's addresses is a finding, not a reason to
      // plan around it.
      if (o.doctor || o.watch) nets[info.host].routes.clear();
    } catch (const Error& e) {
      report(s, {{info.host, "no-state",
                  "could not read its addresses and routes (" + std::string(e.what()) + ")",
                  "planning with the probe's addresses only", Severity::warning}});
    }
  }
  auto subnet =
      netsetup::parse_subnet(o.subnet.empty() ? netsetup::kDefaultSubnet : o.subnet, "--subnet");
  auto plan = netsetup::plan_addresses(netsetup::cables_from_topology(t), subnet, nets);
  for (const auto& skip : plan.skips) note(s, "skipped " + skip);
  return plan;
}

int network_setup(const Options& o, Services& s, Gathered& g, const netsetup::Plan& plan) {
  emit_scripts(o, s, g, plan);
  if (!o.auto_setup.value_or(false)) {
    note(s,
         "the hostfile assumes these point-to-point addresses; run on each host "
         "(or use --auto-setup):");
    for (const auto& info : g.infos) print_commands(o, s, info, plan);
    return 0;
  }
  auto script = [&](const auto& h) { return netsetup::setup_script(h, plan, setup_options(o)); };
  auto outcomes = run_as_root(o, s, g, script, &plan);
  int bad_hosts = report_outcomes(s, outcomes, "setup");
  auto v = verify(o, s, g, plan);
  if (o.json)
    print_json(s, "setup", &plan, steps_json(outcomes), v.links, bad_hosts == 0 && v.failed == 0);
  if (bad_hosts)
    throw RemoteError("setup", fmt::format("{} of {} host(s) failed", bad_hosts, outcomes.size()),
                      "fix what is named above and run again (setup is safe to repeat)");
  verify_failed(v);
  return 0;
}

int network_verify(const Options& o, Services& s, Gathered& g, const netsetup::Plan& plan) {
  auto v = verify(o, s, g, plan);
  if (o.json) print_json(s, "verify", &plan, nlohmann::json::array(), v.links, v.failed == 0);
  verify_failed(v);
  return 0;
}

int network_teardown(const Options& o, Services& s, Gathered& g) {
  auto outcomes = run_as_root(o, s, g, netsetup::teardown_script, nullptr);
  int bad_hosts = report_outcomes(s, outcomes, "teardown");
  if (o.json)
    print_json(s, "teardown", nullptr, steps_json(outcomes), nlohmann::json::array(),
               bad_hosts == 0);
  if (bad_hosts)
    throw RemoteError("teardown",
                      fmt::format("{} of {} host(s) failed", bad_hosts, outcomes.size()),
                      "fix what is named above and run --teardown again");
  return 0;
}

}  // namespace distkit::configtool
