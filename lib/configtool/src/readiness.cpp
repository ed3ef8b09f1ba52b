// See readiness.hpp.
#include "readiness.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "diagnostics.hpp"
#include "distkit/util/strings.hpp"
#include "thunderbolt_flow.hpp"

namespace distkit::configtool {

namespace {

using nlohmann::json;

struct Row {
  std::string host, os, model, ports, rdma, bridge, sudo, python, mlx;
};

std::string rdma_state(const probe::HostInfo& h) {
  auto active = std::ranges::count_if(h.rdma_ports, &probe::RdmaPortState::active);
  std::string s = std::to_string(h.rdma_devices.size()) + " dev";
  if (!h.rdma_ports.empty()) s += ", " + std::to_string(active) + " active";
  if (h.rdma_ctl == probe::RdmaCtl::enabled) s += ", enabled";
  if (h.rdma_ctl == probe::RdmaCtl::disabled) s += ", disabled";
  if (!h.has_ibv_devices && h.rdma_devices.empty()) s = "no ibv tools";
  return s;
}

Row make_row(const probe::HostInfo& h, const topology::Host& th) {
  Row r;
  r.host = h.host;
  r.os = trim(h.os.name + " " + h.os.version + (h.os.build.empty() ? "" : " (" + h.os.build + ")"));
  if (r.os.empty()) r.os = h.uname.kernel;
  r.model = h.hw_model.empty() ? h.thunderbolt.machine_name : h.hw_model;
  int linked = 0;
  for (const auto& p : th.ports) linked += !p.peer_uuids.empty();
  r.ports = std::to_string(linked) + "/" + std::to_string(th.ports.size()) + " cabled";
  if (!h.has_thunderbolt)  // Linux: what /sys/bus/thunderbolt lists, if anything
    r.ports = h.linux_thunderbolt.empty()
                  ? "-"
                  : std::to_string(h.linux_thunderbolt.size()) + " usb4 dev";
  r.rdma = rdma_state(h);
  r.bridge =
      !h.bridge0
          ? "-"
          : (h.bridge0->status.empty() ? "present" : h.bridge0->status) +
                (h.bridge0->members.empty() ? "" : " [" + join(h.bridge0->members, ",") + "]");
  r.sudo = !h.passwordless_sudo ? "?" : (*h.passwordless_sudo ? "yes" : "no");
  r.python = h.python_version.empty() ? "-" : h.python_version;
  r.mlx = h.mlx_version.empty() ? "-" : h.mlx_version;
  return r;
}

std::vector<Problem> drift_warnings(const std::vector<probe::HostInfo>& infos) {
  std::map<std::string, std::vector<std::string>> builds, mlx;
  for (const auto& h : infos) {
    if (h.macos && !h.os.build.empty())
      builds[h.os.version + " (" + h.os.build + ")"].push_back(h.host);
    if (!h.mlx_version.empty()) mlx[h.mlx_version].push_back(h.host);
  }
  std::vector<Problem> out;
  auto describe = [](const std::map<std::string, std::vector<std::string>>& m) {
    std::vector<std::string> parts;
    for (const auto& [v, hosts] : m) parts.push_back(v + ": " + join(hosts, ","));
    return join(parts, "; ");
  };
  if (builds.size() > 1)
    out.push_back({"", "build-drift", "macOS builds differ (" + describe(builds) + ")",
                   "RDMA peers should run the same build", Severity::warning});
  if (mlx.size() > 1)
    out.push_back(
        {"", "mlx-drift", "mlx versions differ (" + describe(mlx) + ")", "", Severity::warning});
  return out;
}

// What keeps the backends that count (`wanted`, or all three) from
// running, one per subject and kind (jaccl's RDMA gaps first, the wider
// ones): errors when the check fails, else warnings.
std::vector<Problem> verdict_problems(const Options& o, const std::vector<probe::HostInfo>& infos,
                                      const topology::Topology& t, const topology::Analysis& a,
                                      const std::string& wanted, bool ok) {
  std::vector<Problem> ps;
  for (const auto& h : infos)
    if (o.over == "ethernet" && h.management_address().empty())
      ps.push_back({h.host, "no-address", "no address found (en0, en1 or its route here)", ""});
  for (const char* b : {"ring", "jaccl", "jaccl-ring"}) {
    if (o.over == "ethernet" || !(wanted.empty() || wanted == b)) continue;
    for (auto& p : backend_problems(b, t, a))
      if (std::none_of(ps.begin(), ps.end(), [&](const Problem& q) {
            return q.kind == p.kind && q.subject == p.subject;
          }))
        ps.push_back(p);
  }
  for (auto& p : ps) p.severity = ok ? Severity::warning : Severity::error;
  return ps;
}

// Over Ethernet the ring (and a plain Ethernet hostfile) runs on each
// host's management address, as MLX's ring does over a LAN: ready when
// every host has one.
std::string ethernet_verdict(const std::vector<probe::HostInfo>& infos) {
  std::vector<std::string> without;
  for (const auto& h : infos)
    if (h.management_address().empty()) without.push_back(h.host);
  if (without.empty()) return "";
  return "no address found for " + join(without, ", ");
}

}  // namespace

int readiness_report(const Options& o, Services& s, const std::vector<probe::HostInfo>& infos,
                     const topology::Topology& t, const topology::Analysis& a) {
  std::vector<Row> rows;
  for (size_t i = 0; i < infos.size(); ++i) rows.push_back(make_row(infos[i], t.hosts[i]));
  auto drift = drift_warnings(infos);
  report(s, drift);
  const std::string ethernet = ethernet_verdict(infos);
  std::vector<std::pair<std::string, std::string>> verdicts{
      {"ring", o.over == "ethernet" ? ethernet : ring_verdict(t, a)},
      {"jaccl", jaccl_verdict(t, a)},
      {"jaccl-ring", jaccl_ring_verdict(t, a)},
      {"ethernet", ethernet}};
  bool ok = false;
  std::string wanted = o.backend.value_or(o.over == "ethernet" ? "ethernet" : "");
  for (const auto& [name, why] : verdicts)
    if ((wanted.empty() ? name != "ethernet" : name == wanted) && why.empty()) ok = true;
  // A host that could not be probed (gather.hpp) is not ready either.
  ok = ok && std::ranges::none_of(s.problems, &Problem::is_error);
  report(s, verdict_problems(o, infos, t, a, wanted, ok));
  if (o.json) {
    json j;
    j["schema"] = "distkit.readiness/1";
    j["hosts"] = json::array();
    for (size_t i = 0; i < infos.size(); ++i) {
      const auto& h = infos[i];
      j["hosts"].push_back({{"ssh", h.host},
                            {"os", h.os.name},
                            {"version", h.os.version},
                            {"build", h.os.build},
                            {"kernel", h.uname.kernel},
                            {"model", rows[i].model},
                            {"management_address", h.management_address()},
                            {"thunderbolt_ports", t.hosts[i].ports.size()},
                            {"rdma_devices", h.rdma_devices.size()},
                            {"rdma", rows[i].rdma},
                            {"linux_thunderbolt_devices", h.linux_thunderbolt.size()},
                            {"bridge0", rows[i].bridge},
                            {"sudo", rows[i].sudo},
                            {"python", h.python_version},
                            {"mlx", h.mlx_version}});
    }
    j["links"] = json::array();
    for (const auto& l : t.links)
      j["links"].push_back(
          {{"a", t.hosts[size_t(l.a)].name},
           {"a_iface", t.iface(l.a, l)},
           {"b", t.hosts[size_t(l.b)].name},
           {"b_iface", t.iface(l.b, l)},
           {"gbps", l.gbps},
           {"tb5", l.tb5()},
           {"symmetric", l.symmetric()},
           {"a_rdma_port", infos[size_t(l.a)].rdma_port_state("rdma_" + t.iface(l.a, l))},
           {"b_rdma_port", infos[size_t(l.b)].rdma_port_state("rdma_" + t.iface(l.b, l))}});
    j["warnings"] = json::array();
    for (const auto& p : drift) j["warnings"].push_back(describe(p));
    j["problems"] = to_json(s.problems);
    for (const auto& [name, why] : verdicts)
      j["verdicts"][name] = {{"ok", why.empty()}, {"reason", why}};
    j["ready"] = ok;
    s.out << j.dump(4) << "\n";
    return ok ? 0 : 1;
  }
  std::vector<std::vector<std::string>> table{
      {"HOST", "OS", "MODEL", "THUNDERBOLT", "RDMA", "BRIDGE0", "SUDO", "PYTHON", "MLX"}};
  for (const auto& r : rows)
    table.push_back({r.host, r.os, r.model, r.ports, r.rdma, r.bridge, r.sudo, r.python, r.mlx});
  print_table(s.out, table);
  for (const auto& p : drift) s.out << "warning: " << describe(p) << "\n";
  s.out << "\n";
  for (const auto& [name, why] : verdicts)
    s.out << name << ": " << (why.empty() ? "ready" : "not ready: " + why) << "\n";
  return ok ? 0 : 1;
}

}  // namespace distkit::configtool
