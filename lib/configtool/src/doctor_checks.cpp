// See doctor_checks.hpp. The causes and fixes named here are the ones users
// reported (issue threads cited in man/distconfig.1.md, DOCTOR); the
// formats read are those of tests/data/doctor/SOURCES.md.
#include "doctor_checks.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cstdlib>
#include <utility>

#include "distkit/netsetup/net_state.hpp"
#include "distkit/probe/hardware_ports.hpp"
#include "distkit/probe/netif.hpp"
#include "distkit/probe/rdma.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::configtool {

namespace {

std::string first_line_with(const std::string& text, const std::string& word) {
  for (auto line : split_lines(text))
    if (line.find(word) != std::string_view::npos) return std::string(trim(line));
  return "";
}

void read_route(const probe::Capture& c, size_t i, bool mac, const Hop& h, HopResult& r) {
  const auto* sec = c.find("route_" + std::to_string(i));
  std::string cmd = mac ? "route -n get " + h.address : "ip route get " + h.address;
  if (!sec) return;
  if (sec->status == 0)
    if (auto route = probe::parse_route_get(sec->output)) r.route_iface = route->interface;
  std::string line = mac ? first_line_with(sec->output, "interface:") : first_line(sec->output);
  r.route_evidence =
      cmd + ": " +
      (line.empty() ? "no route (exit status " + std::to_string(sec->status) + ")" : line);
  r.route_gateway = mac ? !first_line_with(sec->output, "gateway:").empty()
                        : sec->output.find(" via ") != std::string::npos;
}

void read_link(const probe::Capture& c, size_t i, bool mac, const Hop& h, HopResult& r) {
  const auto* sec = c.find("link_" + std::to_string(i));
  if (!sec || h.iface.empty()) return;
  std::string cmd = mac ? "ifconfig " + h.iface : "ip -o link show dev " + h.iface;
  if (sec->status != 0) {
    r.link = "missing";
    r.link_evidence = cmd + ": exit status " + std::to_string(sec->status);
    return;
  }
  // macOS: "status: inactive" without a carrier; Linux: LOWER_UP with one.
  if (mac) {
    std::string st = first_line_with(sec->output, "status:");
    r.link = st.find("inactive") != std::string::npos ? "down" : "up";
    r.link_evidence = cmd + ": " + (st.empty() ? first_line(sec->output) : st);
  } else {
    std::string line = first_line(sec->output);
    r.link = line.find("LOWER_UP") != std::string::npos ? "up" : "down";
    auto lt = line.find('<'), gt = line.find('>');
    r.link_evidence =
        cmd + ": " +
        (lt != std::string::npos && gt != std::string::npos ? line.substr(lt, gt - lt + 1) : line);
  }
}

void read_connect(const probe::Capture& c, size_t i, HopResult& r) {
  const auto* sec = c.find("connect_" + std::to_string(i));
  if (!sec) return;
  // One line (the test prints one): text after it must not reach the
  // report, which prints a finding a line.
  auto f = split(first_line(sec->output), '\t');
  if (f.size() >= 2 && f[0] == "ok") {
    r.connected = true;
    r.rtt_ms = std::strtod(f[1].c_str(), nullptr);  // a bad field reads as 0 ms
    if (f.size() >= 4 && !f[3].empty()) r.mbps = std::strtod(f[3].c_str(), nullptr);
  } else if (f.size() >= 4 && f[0] == "fail") {
    r.errno_name = f[1];
    r.errno_number = parse_decimal<int>(f[2]).value_or(0);
    r.errno_text = f[3];
  } else {
    r.errno_text =
        "the connect test printed nothing (exit status " + std::to_string(sec->status) + ")";
  }
}

void read_speed(const probe::Capture& c, size_t i, HopResult& r) {
  if (const auto* sec = c.ok("speed_" + std::to_string(i)))
    r.speed_mbps = parse_digits(trim(sec->output), 18).value_or(-1);
}

// The linked speed of `iface`'s receptacle (0 when nothing is linked), from
// system_profiler's current_speed_key ("80 Gb/s"; SPEC §1).
void read_tb_speeds(const probe::Capture& c, const std::vector<Hop>& hops,
                    const std::vector<probe::HardwarePort>& ports, std::vector<HopResult>& out) {
  const auto* sec = c.ok("tb_json");
  if (!sec || ports.empty()) return;
  auto report = probe::parse_system_profiler_thunderbolt(sec->output);
  if (!report.error.empty()) return;
  for (size_t i = 0; i < hops.size() && i < out.size(); ++i)
    for (const auto& p : report.ports)
      if (!hops[i].iface.empty() &&
          probe::thunderbolt_interface(ports, p.receptacle) == hops[i].iface)
        out[i].speed_mbps = long(p.linked_gbps()) * 1000;
}

// What kind of interface `iface` is: "thunderbolt" (one of `tb_ifaces`),
// "bridge" (bridge0: the Thunderbolt Bridge), "vpn" (utun*, tailscale*,
// wg*, ipsec*, ppp*), "loopback", "missing" (""), else "lan".
std::string classify_iface(const std::string& iface, const std::set<std::string>& tb_ifaces) {
  if (iface.empty()) return "missing";
  if (tb_ifaces.count(iface)) return "thunderbolt";
  if (iface.starts_with("bridge")) return "bridge";
  for (const char* vpn : {"utun", "tailscale", "wg", "ipsec", "ppp"})
    if (iface.starts_with(vpn)) return "vpn";
  if (iface == "lo" || iface == "lo0") return "loopback";
  return "lan";
}

Finding route_finding(const Hop& h, const HopResult& r, const std::set<std::string>& tb) {
  const std::string kind = classify_iface(r.route_iface, tb);
  auto route = [&](const char* verdict, std::string cause = "", std::string fix = "") {
    return Finding{h.host,           "route",          h.name(),      verdict,
                   r.route_evidence, std::move(cause), std::move(fix)};
  };
  if (kind == "missing")
    return route("fail", "no route to " + h.address,
                 h.kind == "link" ? "set the link's addresses up: distconfig --auto-setup"
                                  : "give the host a route to " + h.address);
  if (!h.iface.empty() && r.route_iface == h.iface) return route("ok");
  std::string where = kind == "vpn"      ? "a VPN (" + r.route_iface + ")"
                      : kind == "bridge" ? "the Thunderbolt Bridge (" + r.route_iface + ")"
                      : kind == "lan"    ? "the LAN (" + r.route_iface + ")"
                                         : r.route_iface;
  if (h.iface.empty() && h.cabled && kind != "thunderbolt")  // exo#2295: 8.7 vs 25.4 tok/s
    return route("warn",
                 "this ring hop goes through " + where + " although " + h.host + " and " + h.peer +
                     " share a Thunderbolt cable: the ring runs at that path's speed",
                 "put the peer's Thunderbolt link address in the hostfile (distconfig writes it)");
  if (h.iface.empty()) {  // any interface will do, but a VPN costs tens of ms (exo#1723)
    if (kind != "vpn") return route("ok");
    return route("warn",
                 "the connection to " + h.address + " goes through " + where +
                     ": tens of ms per message instead of <1 ms over a cable",
                 "use the peer's Thunderbolt or LAN address, or stop the VPN from routing it");
  }
  if (kind == "thunderbolt")
    return route("fail",
                 "traffic to " + h.address + " leaves through " + r.route_iface + ", not " +
                     h.iface + ": another cable's interface holds a route to it",
                 "remove the other route (distconfig --teardown, then --auto-setup)");
  return route("fail",
               "traffic to " + h.address + " leaves through " + where + ", not the link " +
                   h.iface + ": the job runs at that path's speed",
               "remove the route that sends " + h.address + " to " + r.route_iface +
                   " (the command above shows it), then run distconfig --auto-setup again");
}

}  // namespace

std::string Hop::name() const {
  return host + (iface.empty() ? "" : ":" + iface) + " -> " + peer + " (" + address +
         (kind == "link" ? "" : ", " + kind) + ")";
}

HostResult read_host_result(const std::string& host, const probe::Capture& c,
                            const std::vector<Hop>& hops,
                            const std::vector<probe::HardwarePort>& ports) {
  HostResult r;
  r.host = host;
  if (c.find("noperl")) {
    r.error = "no perl on this host; the checks need /usr/bin/perl (macOS and Debian ship it)";
    return r;
  }
  if (const auto* u = c.ok("uname")) r.macos = trim(u->output) == "Darwin";
  for (size_t i = 0; i < hops.size(); ++i) {
    HopResult h;
    read_route(c, i, r.macos, hops[i], h);
    read_link(c, i, r.macos, hops[i], h);
    read_connect(c, i, h);
    read_speed(c, i, h);
    r.hops.push_back(h);
  }
  read_tb_speeds(c, hops, ports, r.hops);
  if (const auto* d = c.ok("daemons"))
    for (auto line : split_lines(d->output))
      if (!trim(line).empty()) r.daemon_files.emplace_back(trim(line));
  if (const auto* l = c.ok("location")) r.location = first_line(l->output);
  if (const auto* st = c.ok("state"))
    for (const auto& rec : netsetup::parse_state_records(st->output))
      if (rec.kind == "location") r.setup_location = rec.args[0];
  if (const auto* v = c.ok("ibv_devinfo_v")) r.ibv_devinfo_verbose = v->output;
  if (const auto* l = c.ok("listen"))
    for (auto line : split_lines(l->output)) {
      auto f = split(line, '\t');
      if (f.size() >= 3 && f[0] == "nolisten") r.not_listening.push_back(f[1] + ": " + f[2]);
    }
  return r;
}

Cause connect_cause(const std::string& name, const std::string& text, bool route_ok,
                    bool same_subnet, bool macos, int port) {
  const std::string p = std::to_string(port);
  if (name == "ETIMEDOUT")
    return {
        "no answer before the timeout: the cable unplugged or the link down at either end, "
        "the peer's address not set up, or a firewall dropping port " +
            p,
        "check the cable and both interfaces, the peer's address (distconfig --auto-setup) "
        "and its firewall"};
  if (name == "ECONNREFUSED")
    return {"the peer answered but nothing listens on port " + p +
                " (the path works; its listener could not bind: port in use?)",
            "free the port on the peer, or pick another with --test-port"};
  if (name == "EHOSTDOWN")
    return {
        "the peer does not answer on the link (no ARP reply): it is down, the cable is cut, "
        "or its end has no address",
        "check the cable and the peer's interface and address"};
  if (name == "EHOSTUNREACH" && route_ok && same_subnet && macos)
    return {
        "EHOSTUNREACH to a peer on the same subnet although the route is right: on macOS "
        "15+ this is Local Network privacy refusing the process whose responsible app (a "
        "third-party terminal, tmux, a launchd job) lacks the Local Network permission "
        "(TN3179); processes started over SSH are exempt",
        "allow that app in System Settings > Privacy & Security > Local Network, or start "
        "the job over SSH (distlaunch does) or from Terminal"};
  if (name == "EHOSTUNREACH" || name == "ENETUNREACH")
    return {route_ok ? "the peer is unreachable over the route (no ARP answer, or an ICMP "
                       "unreachable from a router)"
                     : "no usable route to the peer",
            "check the route named above and the peer's address (distconfig --auto-setup)"};
  return {"connect failed: " + (name.empty() ? text : name + " (" + text + ")"),
          "check the route and the peer"};
}

std::vector<Finding> judge_hops(const std::vector<Hop>& hops, const HostResult& r,
                                const std::set<std::string>& tb, int port) {
  std::vector<Finding> out;
  for (size_t i = 0; i < hops.size() && i < r.hops.size(); ++i) {
    const Hop& h = hops[i];
    const HopResult& x = r.hops[i];
    if (!h.iface.empty() && x.link == "up")
      out.push_back({h.host, "link", h.host + ":" + h.iface, "ok", x.link_evidence});
    if (!h.iface.empty() && x.speed_mbps > 0)
      out.push_back(
          {h.host, "speed", h.host + ":" + h.iface, "ok",
           "/sys/class/net/" + h.iface + "/speed: " + std::to_string(x.speed_mbps) + " Mb/s"});
    if (!h.iface.empty() && x.link != "up")
      out.push_back(
          {h.host, "link", h.host + ":" + h.iface, "fail", x.link_evidence,
           x.link == "missing"
               ? "this host has no interface " + h.iface + " (renamed, or the adapter is gone)"
               : h.iface + " is down here (cable unplugged, or the interface disabled)",
           "check the cable and the interface"});
    out.push_back(route_finding(h, x, tb));
    if (x.connected) {
      std::string ev = fmt::format("TCP connect to {}:{} in {:.2f} ms", h.address, port, x.rtt_ms);
      out.push_back({h.host, "connect", h.name(), "ok", ev});
      continue;
    }
    bool route_ok = !x.route_iface.empty() && (h.iface.empty() || x.route_iface == h.iface);
    Cause c = connect_cause(x.errno_name, x.errno_text, route_ok, !x.route_gateway, r.macos, port);
    std::string ev =
        "TCP connect to " + h.address + ":" + std::to_string(port) + ": " +
        (x.errno_name.empty() ? x.errno_text
                              : x.errno_name + " (errno " + std::to_string(x.errno_number) + ", " +
                                    x.errno_text + ")");
    out.push_back({h.host, "connect", h.name(), "fail", ev, c.cause, c.fix});
  }
  return out;
}

std::vector<Finding> judge_host(const HostResult& r) {
  std::vector<Finding> out;
  for (const auto& f : r.daemon_files)
    out.push_back(
        {r.host, "daemon", f, "fail", f + " exists",
         "exo's network daemon (io.exo.networksetup) runs at boot and every ~30 minutes: it "
         "switches to its own \"exo\" network location and puts the Thunderbolt services on "
         "DHCP, wiping the link addresses (exo#2067, exo#2279)",
         "remove it: sudo launchctl unload /Library/LaunchDaemons/io.exo.networksetup.plist, "
         "then delete the plist and /Library/Application Support/EXO (or run exo's "
         "uninstall-exo.sh)"});
  if (r.location) {
    std::string ev = "networksetup -getcurrentlocation: " + *r.location;
    const auto& set_in = r.setup_location;
    if (set_in) ev += "; " + r.state_file + ": location " + *set_in;
    if (set_in && *set_in != *r.location)
      out.push_back(
          {r.host, "location", *r.location, "fail", ev,
           "the network location is " + *r.location + "; distconfig set up the link addresses in " +
               *set_in +
               ": switching locations makes configd apply the other location's service "
               "settings, which can drop addresses set by hand (exo's daemon switches to its "
               "\"exo\" location on purpose, exo#2279)",
           "switch back: sudo networksetup -switchtolocation " + shell_quote(*set_in) +
               ", then distconfig --auto-setup (it sets up again what the switch dropped, and "
               "verifies); to stay in " +
               *r.location + ", only distconfig --auto-setup (it records " + *r.location + ")"});
    else if (*r.location == "exo")
      out.push_back({r.host, "location", *r.location, "warn", ev,
                     "the network location is exo's, which its daemon switches to and "
                     "rewrites (exo#2279)",
                     "switch back: sudo networksetup -switchtolocation Automatic, then "
                     "distconfig --auto-setup"});
    else
      out.push_back({r.host, "location", *r.location, "ok", ev});
  }
  return out;
}

std::vector<Finding> judge_rdma(const HostResult& r, const std::vector<std::string>& ifaces) {
  std::vector<Finding> out;
  if (!r.ibv_devinfo_verbose) return out;
  auto ports = probe::parse_ibv_devinfo_verbose(*r.ibv_devinfo_verbose);
  for (const auto& iface : ifaces) {
    std::string dev = "rdma_" + iface;
    for (const auto& p : ports) {
      if (p.port.device != dev) continue;
      std::string subject = dev + " port " + std::to_string(p.port.port);
      std::string ev = "ibv_devinfo -v: state " + p.port.state;
      if (!p.port.active()) {
        out.push_back(
            {r.host, "rdma", subject, "fail", ev,
             subject + " is not PORT_ACTIVE: no cable, or RDMA not enabled at the other end",
             "check the cable and `rdma_ctl status` on both Macs"});
        continue;
      }
      std::string v4 = p.ipv4_mapped();
      if (v4.empty())
        out.push_back(
            {r.host, "rdma", subject, "fail",
             ev + ", GIDs: " + (p.gids.empty() ? "none" : join(p.gids, " ")),
             "no IPv4-mapped GID (::ffff:a.b.c.d): JACCL cannot address this "
             "port (MLX #4191)",
             "give " + iface + " an IPv4 address (distconfig --auto-setup) outside bridge0"});
      else
        out.push_back({r.host, "rdma", subject, "ok", ev + ", GID ::ffff:" + v4});
    }
  }
  return out;
}

std::vector<Finding> judge_speeds(const topology::Topology& t) {
  std::vector<Finding> out;
  auto best = [&](int host) {
    int m = 0;
    for (const auto& p : t.hosts[size_t(host)].ports) m = std::max(m, p.max_gbps);
    return m;
  };
  for (const auto& l : t.links) {
    if (l.gbps <= 0) continue;
    const auto& pa = t.hosts[size_t(l.a)].ports[size_t(l.pa)];
    const auto& pb = t.hosts[size_t(l.b)].ports[size_t(l.pb)];
    std::string subject = t.hosts[size_t(l.a)].name + ":" + pa.label() + " <-> " +
                          t.hosts[size_t(l.b)].name + ":" + pb.label();
    int cap = std::min(best(l.a), best(l.b));
    std::string ev = "system_profiler SPThunderboltDataType: linked at " + std::to_string(l.gbps) +
                     " Gb/s; both Macs have ports up to " + std::to_string(cap) + " Gb/s";
    if (cap >= 80 && l.gbps < 80)
      out.push_back({t.hosts[size_t(l.a)].name, "speed", subject, "warn", ev,
                     "both Macs have Thunderbolt 5 ports but this cable runs at " +
                         std::to_string(l.gbps) +
                         " Gb/s: a Thunderbolt 3/4 cable, or a dock or hub in the path",
                     "use a Thunderbolt 5 cable straight between the two ports"});
    else
      out.push_back({t.hosts[size_t(l.a)].name, "speed", subject, "ok", ev});
  }
  return out;
}

}  // namespace distkit::configtool
