// See thunderbolt_flow.hpp.
#include "thunderbolt_flow.hpp"

#include <algorithm>

#include "diagnostics.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/topology/render.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::configtool {

using topology::Analysis;
using topology::Choice;
using topology::Topology;

void warn_topology(Services& s, const Topology& t, const std::vector<probe::HostInfo>& infos) {
  std::vector<Problem> ps;
  auto warn = [&ps](std::string subject, const char* kind, std::string what, std::string fix = "") {
    ps.push_back({std::move(subject), kind, std::move(what), std::move(fix), Severity::warning});
  };
  for (size_t i = 0; i < infos.size(); ++i) {
    if (!infos[i].has_thunderbolt)
      warn(infos[i].host, "no-thunderbolt", "no Thunderbolt information (not a Mac?)",
           "use --over ethernet for it");
    for (const auto& r : t.hosts[i].unmapped_receptacles)
      warn(infos[i].host, "unmapped-port",
           "receptacle " + r + " has no \"Thunderbolt " + r + "\" port in networksetup",
           "its cable cannot carry IP or RDMA");
  }
  for (size_t l = 0; l < t.links.size(); ++l)
    if (!t.links[l].symmetric())
      warn(topology::link_name(t, int(l)), "asymmetric-link",
           "only " + t.hosts[size_t(t.links[l].a)].name + " lists it (a dock or hub in the path?)");
  for (const auto& e : t.external)
    warn(t.hosts[size_t(e.host)].name + " " + t.hosts[size_t(e.host)].ports[size_t(e.port)].label(),
         "outside-cable", "cabled to a Mac that is not in the host list");
  report(s, ps);
}

namespace {

// What keeps RDMA off the links of `r`: per link, per device, per host.
std::vector<Problem> rdma_problems(const Topology& t, const topology::RdmaReadiness& r) {
  std::vector<Problem> ps;
  for (int l : r.tb4_links) {
    const int gbps = t.links[size_t(l)].gbps;
    ps.push_back({topology::link_name(t, l), "tb4-link",
                  "RDMA needs Thunderbolt 5, and this link runs at " +
                      (gbps ? std::to_string(gbps) + " Gb/s" : std::string("an unknown speed")),
                  "use ring"});
  }
  for (int l : r.unmapped_links)
    ps.push_back({topology::link_name(t, l), "no-interface",
                  "an end has no interface name (networksetup)", ""});
  for (const auto& q : r.over_limit)
    ps.push_back({t.hosts[size_t(q.host)].name + " " + q.device, "too-many-queue-pairs",
                  std::to_string(q.queue_pairs) + " queue pairs, more than the " +
                      std::to_string(topology::kMaxQueuePairsPerDevice) +
                      " a device supports (TN3205)",
                  "use ring, or fewer peers behind this port"});
  for (const auto& g : r.hosts_missing)
    ps.push_back({t.hosts[size_t(g.host)].name, "rdma-disabled",
                  "RDMA is not enabled (missing " + join(g.missing_devices, ", ") + ")",
                  "run rdma_ctl enable in macOS Recovery (not remotely, even with sudo)"});
  return ps;
}

// The problems in one line, without their remedies.
std::string rdma_reason(const Topology& t, const topology::RdmaReadiness& r) {
  std::vector<std::string> why;
  for (const auto& p : rdma_problems(t, r)) why.push_back(describe({p.subject, "", p.problem, ""}));
  return join(why, "; ");
}

// The problems, then each RDMA-less host's Recovery steps.
void report_rdma(Services& s, const Topology& t, const topology::RdmaReadiness& r,
                 Severity severity) {
  auto ps = rdma_problems(t, r);
  for (auto& p : ps) p.severity = severity;
  report(s, ps);
  for (const auto& g : r.hosts_missing) s.err << topology::render_recovery(t, g);
}

// Each pair of hosts without a cable between them (a full mesh needs one).
std::vector<Problem> mesh_problems(const Topology& t, const Analysis& a) {
  std::vector<Problem> ps;
  for (const auto& m : a.missing)
    ps.push_back({t.hosts[size_t(m.a)].name + " <-> " + t.hosts[size_t(m.b)].name, "missing-cable",
                  "no cable between them",
                  "free ports on " + topology::free_ports_text(t, m.a) + "; on " +
                      topology::free_ports_text(t, m.b)});
  return ps;
}

// Each host cabled to fewer than two others (a ring needs two).
std::vector<Problem> ring_problems(const Topology& t) {
  std::vector<Problem> ps;
  for (size_t i = 0; i < t.hosts.size(); ++i) {
    auto peers = std::ranges::count_if(t.count[i], [](int n) { return n > 0; });
    if (peers < 2)
      ps.push_back({t.hosts[i].name, "ring-gap",
                    "cabled to " + std::to_string(peers) + " host(s), a ring needs 2",
                    "free ports on " + topology::free_ports_text(t, int(i))});
  }
  return ps;
}

void report_no_ring(Services& s, const Topology& t) {
  report(s, ring_problems(t));
  for (const auto& r : topology::longest_partial_rings(t.count)) {
    std::vector<std::string> names;
    for (int h : r.order) names.push_back(t.hosts[size_t(h)].name);
    note(s, "longest ring found: " + join(names, ","));
  }
}

Choice require_jaccl(Services& s, const Topology& t, const Analysis& a) {
  if (!a.mesh()) {
    report(s, mesh_problems(t, a));
    throw RemoteError("jaccl",
                      "the hosts are not a full mesh (" + std::to_string(a.missing.size()) +
                          " pair(s) without a cable)",
                      "add the cables listed above, or use --backend ring or jaccl-ring");
  }
  if (!a.mesh_rdma.ready()) {
    report_rdma(s, t, a.mesh_rdma, Severity::error);
    throw RemoteError("jaccl", "RDMA is not ready on the links jaccl needs",
                      "follow the steps above, or use --backend ring");
  }
  return Choice::jaccl;
}

Choice require_ring(Services& s, const Topology& t, const Analysis& a, const std::string& name) {
  if (!a.ring && a.ring_search_gave_up)
    throw RemoteError(name,
                      "the ring search gave up on this irregular cabling (" +
                          std::to_string(t.hosts.size()) + " hosts) without an answer",
                      "cable the hosts as a ring (each host to the next) or use --backend jaccl");
  if (!a.ring) {
    report_no_ring(s, t);
    throw RemoteError(name, "no ring through all " + std::to_string(t.hosts.size()) + " hosts",
                      "add the cables listed above; run with --dot to see the cabling");
  }
  return Choice::ring;
}

}  // namespace

std::vector<Problem> backend_problems(const std::string& backend, const Topology& t,
                                      const Analysis& a) {
  if (backend == "jaccl") return a.mesh() ? rdma_problems(t, a.mesh_rdma) : mesh_problems(t, a);
  if (!a.ring) return ring_problems(t);
  if (backend == "jaccl-ring") return rdma_problems(t, a.ring_rdma);
  return {};
}

std::string ring_verdict(const Topology& t, const Analysis& a) {
  if (a.ring) return "";
  if (t.hosts.size() < 2) return "needs at least 2 hosts";
  if (a.ring_search_gave_up) return "ring search gave up (irregular cabling)";
  return "no ring through all " + std::to_string(t.hosts.size()) + " hosts";
}

std::string jaccl_verdict(const Topology& t, const Analysis& a) {
  if (t.hosts.size() < 2) return "needs at least 2 hosts";
  if (!a.mesh())
    return "not a full mesh (" + std::to_string(a.missing.size()) + " pair(s) without a cable)";
  return rdma_reason(t, a.mesh_rdma);
}

std::string jaccl_ring_verdict(const Topology& t, const Analysis& a) {
  if (!a.ring) return ring_verdict(t, a);
  return rdma_reason(t, a.ring_rdma);
}

Choice pick_backend(const Options& o, Services& s, const Topology& t, const Analysis& a) {
  if (o.backend == "jaccl") return require_jaccl(s, t, a);
  // Cables declared with --links carry TCP only (no RDMA discovery): ring,
  // unless a backend is asked for.
  if (o.backend == "ring" || (o.links && !o.backend)) return require_ring(s, t, a, "ring");
  if (o.backend == "jaccl-ring") {
    require_ring(s, t, a, "jaccl-ring");
    if (!a.ring_rdma.ready()) {
      report_rdma(s, t, a.ring_rdma, Severity::error);
      throw RemoteError("jaccl-ring", "RDMA is not ready on the ring's links",
                        "follow the steps above, or use --backend ring");
    }
    return Choice::jaccl_ring;
  }
  Choice c = topology::choose_backend(a);
  if (c == Choice::none) {
    report(s, mesh_problems(t, a));
    report_no_ring(s, t);
    throw RemoteError(
        "thunderbolt",
        "neither a full mesh nor a ring through all " + std::to_string(t.hosts.size()) + " hosts",
        "add the cables listed above; run with --dot to see the cabling");
  }
  if (c == Choice::ring) {
    const auto& r = a.mesh() ? a.mesh_rdma : a.ring_rdma;
    note(s, "RDMA is not available (" + rdma_reason(t, r) + "); using the ring backend over TCP");
    report_rdma(s, t, r, Severity::warning);
  }
  return c;
}

hostfile::Hostfile thunderbolt_hostfile(Choice c, const Topology& t, const Analysis& a,
                                        const std::vector<probe::HostInfo>& infos,
                                        const std::vector<std::string>& envs,
                                        const std::vector<topology::LinkAddresses>& addresses) {
  switch (c) {
    case Choice::jaccl:
      return topology::jaccl_hostfile(t, infos, envs);
    case Choice::jaccl_ring:
      return topology::jaccl_ring_hostfile(t, infos, *a.ring, envs);
    case Choice::ring:
      return topology::ring_hostfile(t, addresses, *a.ring, envs);
    case Choice::none:
      break;
  }
  throw std::logic_error("thunderbolt_hostfile: no backend");
}

}  // namespace distkit::configtool
