// Golden tests of distconfig --doctor's verdicts: each cause the issue names
// (a hop off its link, a VPN path, macOS Local Network privacy, errno
// 60/61/64/65, exo's daemon and location, RDMA without an IPv4-mapped GID,
// a TB5 cable at 40 Gb/s), built from real command outputs
// (tests/data/doctor/SOURCES.md), each with its verdict, evidence and fix;
// and what --watch calls a change.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../topology/builders.hpp"
#include "catch.hpp"
#include "distkit/netsetup/from_topology.hpp"
#include "distkit/probe/hardware_ports.hpp"
#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "doctor_checks.hpp"
#include "doctor_flow.hpp"
#include "run_tool.hpp"
#include "test_data.hpp"
#include "watch_flow.hpp"

using namespace distkit;
using namespace distkit::configtool;
using distkit::test::read_data;

namespace {

void sec(probe::Capture& c, const std::string& name, const std::string& out, int status = 0) {
  c.sections[name] = {out, status};
}

probe::Capture host_capture(const std::string& os) {
  probe::Capture c;
  sec(c, "uname", os + "\n");
  return c;
}

const Finding& find(const std::vector<Finding>& fs, const std::string& check) {
  auto it = std::find_if(fs.begin(), fs.end(), [&](const Finding& f) { return f.check == check; });
  REQUIRE(it != fs.end());
  return *it;
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

Hop link_hop() {
  return {"h1", "tb3", "h3", "10.213.0.6", "link", true};
}

const std::set<std::string> kLinuxTb{"tb2", "tb3"};
const std::set<std::string> kMacTb{"en2", "en3", "en4"};

}  // namespace

TEST_CASE("a hop over its own link passes route, link and connect, quoting each command") {
  auto c = host_capture("Linux");
  sec(c, "route_0", read_data("doctor/ip_route_get_link_tb3_testcluster.txt"));
  sec(c, "link_0", read_data("doctor/ip_link_show_up_tb3_testcluster.txt"));
  sec(c, "connect_0", "ok\t0.412\t10.213.0.5\t\n");
  auto r = read_host_result("h1", c, {link_hop()});
  auto fs = judge_hops({link_hop()}, r, kLinuxTb, 32322);
  for (const auto& f : fs) CHECK(f.verdict == "ok");
  CHECK(find(fs, "route").evidence ==
        "ip route get 10.213.0.6: 10.213.0.6 dev tb3 src 10.213.0.5 uid 0");
  CHECK(find(fs, "link").evidence == "ip -o link show dev tb3: <BROADCAST,MULTICAST,UP,LOWER_UP>");
  CHECK(find(fs, "connect").evidence == "TCP connect to 10.213.0.6:32322 in 0.41 ms");
}

TEST_CASE("a hop routed through another interface than its link is named with that interface") {
  Hop h{"h1", "tb2", "h2", "10.213.0.2", "link", true};
  auto c = host_capture("Linux");
  sec(c, "route_0", read_data("doctor/ip_route_get_lan_eth0_testcluster.txt"));
  sec(c, "connect_0", "ok\t1.1\t10.77.2.2\t\n");
  auto fs = judge_hops({h}, read_host_result("h1", c, {h}), kLinuxTb, 32322);
  const auto& f = find(fs, "route");
  CHECK(f.verdict == "fail");
  CHECK(f.subject == "h1:tb2 -> h2 (10.213.0.2)");
  CHECK(f.cause ==
        "traffic to 10.213.0.2 leaves through the LAN (eth0), not the link tb2: the job runs at "
        "that path's speed");
  CHECK(f.fix ==
        "remove the route that sends 10.213.0.2 to eth0 (the command above shows it), then run "
        "distconfig --auto-setup again");
}

TEST_CASE("a cut link is down, with no route and a failed connect") {
  auto c = host_capture("Linux");
  sec(c, "route_0", "", 2);
  sec(c, "link_0", read_data("doctor/ip_link_show_down_tb3_testcluster.txt"));
  sec(c, "connect_0", "fail\tENETUNREACH\t101\tNetwork is unreachable\t0.05\n", 1);
  auto fs = judge_hops({link_hop()}, read_host_result("h1", c, {link_hop()}), kLinuxTb, 32322);
  CHECK(find(fs, "link").verdict == "fail");
  CHECK(find(fs, "link").cause == "tb3 is down here (cable unplugged, or the interface disabled)");
  CHECK(find(fs, "link").evidence == "ip -o link show dev tb3: <BROADCAST,MULTICAST>");
  CHECK(find(fs, "route").evidence == "ip route get 10.213.0.6: no route (exit status 2)");
  CHECK(find(fs, "route").fix == "set the link's addresses up: distconfig --auto-setup");
  CHECK(find(fs, "connect").evidence ==
        "TCP connect to 10.213.0.6:32322: ENETUNREACH (errno 101, Network is unreachable)");
}

TEST_CASE("what a host prints after the connect line or the location stays out of the report") {
  // Found by fuzz.doctor: the rest of the output became part of the errno's
  // text, and the report, which prints a finding a line, got two.
  auto c = host_capture("Darwin");
  sec(c, "connect_0", "fail\tENETUNREACH\t51\tNetwork is unreachable\nstray\n", 1);
  sec(c, "location", "Automatic\nstray\n");
  auto r = read_host_result("h1", c, {link_hop()});
  CHECK(find(judge_hops({link_hop()}, r, kMacTb, 32322), "connect").evidence ==
        "TCP connect to 10.213.0.6:32322: ENETUNREACH (errno 51, Network is unreachable)");
  CHECK(r.location == "Automatic");
}

TEST_CASE("macOS: a link hop whose route leaves by en0 (route -n get) is off its link") {
  Hop h{"studio-a", "en3", "studio-b", "192.168.1.1", "link", true};
  auto c = host_capture("Darwin");
  sec(c, "route_0", read_data("doctor/route_n_get_onlink_en0_blog.txt"));
  sec(c, "link_0",
      "en3: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500\n\tstatus: active\n");
  sec(c, "connect_0", "ok\t0.3\t192.168.1.2\t\n");
  auto fs = judge_hops({h}, read_host_result("studio-a", c, {h}), kMacTb, 32322);
  CHECK(find(fs, "route").verdict == "fail");
  CHECK(find(fs, "route").evidence == "route -n get 192.168.1.1: interface: en0");
  CHECK(has(find(fs, "route").cause, "leaves through the LAN (en0), not the link en3"));
  CHECK(find(fs, "link").evidence == "ifconfig en3: status: active");
}

TEST_CASE("macOS: a coordinator connection through a VPN interface is a warning") {
  Hop h{"studio-b", "", "studio-a", "192.168.1.1", "coordinator", false};
  auto route = read_data("doctor/route_n_get_onlink_en0_blog.txt");
  route.replace(route.find("en0"), 3, "utun6");  // the blog's VPN interface name
  auto c = host_capture("Darwin");
  sec(c, "route_0", route);
  sec(c, "connect_0", "ok\t48.0\t100.64.0.2\t\n");
  auto fs = judge_hops({h}, read_host_result("studio-b", c, {h}), kMacTb, 32322);
  CHECK(find(fs, "route").verdict == "warn");
  CHECK(has(find(fs, "route").cause, "goes through a VPN (utun6)"));
}

TEST_CASE("a ring hop between cabled hosts that takes the LAN is a warning (exo#2295)") {
  Hop h{"studio-a", "", "studio-b", "192.0.43.10", "ring", true};
  auto c = host_capture("Darwin");
  sec(c, "route_0", read_data("doctor/route_n_get_default_gateway_en1_realworldsystems.txt"));
  sec(c, "connect_0", "ok\t3.0\t192.168.1.9\t\n");
  auto fs = judge_hops({h}, read_host_result("studio-a", c, {h}), kMacTb, 32322);
  CHECK(find(fs, "route").verdict == "warn");
  CHECK(has(find(fs, "route").cause,
            "goes through the LAN (en1) although studio-a and "
            "studio-b share a Thunderbolt cable"));
}

TEST_CASE("macOS: EHOSTUNREACH to an on-link peer with the right route is Local Network privacy") {
  Hop h{"studio-b", "", "studio-a", "192.168.1.1", "coordinator", false};
  auto c = host_capture("Darwin");
  sec(c, "route_0", read_data("doctor/route_n_get_onlink_en0_blog.txt"));
  sec(c, "connect_0", "fail\tEHOSTUNREACH\t65\tNo route to host\t0.2\n", 1);
  auto fs = judge_hops({h}, read_host_result("studio-b", c, {h}), kMacTb, 32322);
  const auto& f = find(fs, "connect");
  CHECK(f.verdict == "fail");
  CHECK(f.evidence ==
        "TCP connect to 192.168.1.1:32322: EHOSTUNREACH (errno 65, No route to host)");
  CHECK(has(f.cause, "Local Network privacy"));
  CHECK(has(f.cause, "(TN3179)"));
  CHECK(has(f.fix, "System Settings > Privacy & Security > Local Network"));
}

TEST_CASE("EHOSTUNREACH through a gateway, or on Linux, is not Local Network privacy") {
  Hop h{"studio-b", "", "studio-a", "192.0.43.10", "coordinator", false};
  auto c = host_capture("Darwin");
  sec(c, "route_0", read_data("doctor/route_n_get_default_gateway_en1_realworldsystems.txt"));
  sec(c, "connect_0", "fail\tEHOSTUNREACH\t65\tNo route to host\t0.2\n", 1);
  auto fs = judge_hops({h}, read_host_result("studio-b", c, {h}), kMacTb, 32322);
  CHECK_FALSE(has(find(fs, "connect").cause, "Local Network privacy"));
  CHECK_FALSE(has(connect_cause("EHOSTUNREACH", "No route to host", true, true, false, 1).cause,
                  "Local Network privacy"));
}

TEST_CASE("each connect errno has its cause and fix (the man page's table)") {
  CHECK(has(connect_cause("ETIMEDOUT", "", true, true, true, 5).cause,
            "no answer before the timeout"));
  CHECK(has(connect_cause("ECONNREFUSED", "", true, true, true, 5).cause,
            "nothing listens on port 5"));
  CHECK(has(connect_cause("EHOSTDOWN", "", true, true, true, 5).cause, "no ARP reply"));
  CHECK(has(connect_cause("EHOSTUNREACH", "", false, true, true, 5).cause,
            "no usable route to the peer"));
  CHECK(has(connect_cause("EWHATEVER", "Odd", true, true, true, 5).cause, "EWHATEVER (Odd)"));
}

TEST_CASE("exo's network daemon and its location are found, with how to remove them") {
  auto c = host_capture("Darwin");
  sec(c, "daemons", "/Library/LaunchDaemons/io.exo.networksetup.plist\n");
  sec(c, "location", "exo\n");
  auto fs = judge_host(read_host_result("studio-a", c, {}));
  const auto& d = find(fs, "daemon");
  CHECK(d.verdict == "fail");
  CHECK(d.evidence == "/Library/LaunchDaemons/io.exo.networksetup.plist exists");
  CHECK(has(d.cause, "every ~30 minutes"));
  CHECK(has(d.fix, "sudo launchctl unload /Library/LaunchDaemons/io.exo.networksetup.plist"));
  CHECK(find(fs, "location").verdict == "warn");

  auto clean = host_capture("Darwin");
  sec(clean, "daemons", "");
  sec(clean, "location", read_data("doctor/networksetup_getcurrentlocation_automatic.txt"));
  auto ok = judge_host(read_host_result("studio-a", clean, {}));
  REQUIRE(ok.size() == 1);
  CHECK(ok[0].verdict == "ok");
  CHECK(ok[0].evidence == "networksetup -getcurrentlocation: Automatic");
}

namespace {

// A Mac's host checks: the current location and the state file's records.
HostResult located(const std::string& current, const std::string& state_text) {
  auto c = host_capture("Darwin");
  sec(c, "daemons", "");
  sec(c, "location", current);
  sec(c, "state", state_text);
  auto r = read_host_result("studio-a", c, {});
  r.state_file = "/var/db/distkit/netsetup.state";
  return r;
}

}  // namespace

TEST_CASE("the location setup recorded: the same one passes naming both, another one fails") {
  const auto automatic = read_data("doctor/networksetup_getcurrentlocation_automatic.txt");
  auto same = judge_host(located(automatic, "addr en3 10.213.0.1/30\nlocation Automatic\n"));
  REQUIRE(same.size() == 1);
  CHECK(same[0].verdict == "ok");
  CHECK(same[0].evidence ==
        "networksetup -getcurrentlocation: Automatic; /var/db/distkit/netsetup.state: location "
        "Automatic");

  auto other = judge_host(located(automatic, "location Lab Thunderbolt\naddr en3 10.213.0.1/30\n"));
  REQUIRE(other.size() == 1);
  const auto& f = other[0];
  CHECK(f.verdict == "fail");
  CHECK(f.check == "location");
  CHECK(f.subject == "Automatic");
  CHECK(f.evidence ==
        "networksetup -getcurrentlocation: Automatic; /var/db/distkit/netsetup.state: location "
        "Lab Thunderbolt");
  CHECK(f.cause ==
        "the network location is Automatic; distconfig set up the link addresses in Lab "
        "Thunderbolt: switching locations makes configd apply the other location's service "
        "settings, which can drop addresses set by hand (exo's daemon switches to its \"exo\" "
        "location on purpose, exo#2279)");
  CHECK(f.fix ==
        "switch back: sudo networksetup -switchtolocation 'Lab Thunderbolt', then distconfig "
        "--auto-setup (it sets up again what the switch dropped, and verifies); to stay in "
        "Automatic, only distconfig --auto-setup (it records Automatic)");

  // exo's location after a setup elsewhere: a failure (not only exo's warning).
  auto exo = judge_host(located("exo\n", "location Automatic\n"));
  REQUIRE(exo.size() == 1);
  CHECK(exo[0].verdict == "fail");
  CHECK(has(exo[0].fix, "sudo networksetup -switchtolocation Automatic, then"));
}

TEST_CASE("no location record: the location alone as before; no networksetup: no finding") {
  auto none = judge_host(located("Automatic\n", "addr en3 10.213.0.1/30\n"));
  REQUIRE(none.size() == 1);
  CHECK(none[0].verdict == "ok");
  CHECK(none[0].evidence == "networksetup -getcurrentlocation: Automatic");
  auto exo = judge_host(located("exo\n", ""));
  REQUIRE(exo.size() == 1);
  CHECK(exo[0].verdict == "warn");
  CHECK(exo[0].evidence == "networksetup -getcurrentlocation: exo");

  // A Linux host: networksetup is not there (need: status 127).
  auto c = host_capture("Linux");
  sec(c, "location", "", 127);
  sec(c, "state", "location Automatic\n");
  CHECK(judge_host(read_host_result("h1", c, {})).empty());
}

TEST_CASE("--json and the table carry the location finding with its cause and fix") {
  auto fs = judge_host(located("Automatic\n", "location Lab\n"));
  Options o;
  o.json = true;
  std::ostringstream js;
  CHECK(report_findings(o, js, fs) == 1);
  auto j = nlohmann::json::parse(js.str());
  CHECK(j["schema"] == "distkit.doctor/1");
  CHECK(j["ok"] == false);
  CHECK(j["failed"] == 1);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["check"] == "location");
  CHECK(j["findings"][0]["verdict"] == "fail");
  CHECK(j["findings"][0]["evidence"] == fs[0].evidence);
  CHECK(j["findings"][0]["cause"] == fs[0].cause);
  CHECK(j["findings"][0]["fix"] == fs[0].fix);
  // ... and as a problem: the subject names the host, the kind is the check.
  CHECK(j["problems"] == nlohmann::json::array({{{"subject", "studio-a Automatic"},
                                                 {"kind", "location"},
                                                 {"severity", "error"},
                                                 {"problem", fs[0].cause},
                                                 {"remedy", fs[0].fix}}}));
  o.json = false;
  std::ostringstream table;
  CHECK(report_findings(o, table, fs) == 1);
  CHECK(has(table.str(),
            "fail: studio-a location Automatic: " + fs[0].cause + "\n  fix: " + fs[0].fix + "\n"));
  CHECK(has(table.str(), "doctor: 1 check(s), 1 failed, 0 warning(s)\n"));
}

TEST_CASE("the watch reports a location switch, and in its first round one unlike setup's") {
  auto r = located("Automatic\n", "location Automatic\n");
  CHECK(location_change(std::nullopt, r).empty());
  CHECK(location_change(std::string("Automatic"), r).empty());
  CHECK(location_change(std::string("Lab"), r) == "network location changed from Lab to Automatic");
  auto moved = located("exo\n", "location Automatic\n");
  CHECK(location_change(std::nullopt, moved) ==
        "network location is exo, not Automatic (where distconfig set up the link addresses)");
  auto unread = located("", "location Automatic\n");
  unread.location.reset();  // the host did not answer this round
  CHECK(location_change(std::string("Automatic"), unread).empty());
}

TEST_CASE("RDMA: an active port with an IPv4-mapped GID passes; without one it fails") {
  auto text = read_data("probe/ibv_devinfo_v_rdma_en2_gid_table_apple_tn3205_partial.txt");
  auto c = host_capture("Darwin");
  sec(c, "ibv_devinfo_v", text);
  auto fs = judge_rdma(read_host_result("mini-a", c, {}), {"en2"});
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].verdict == "ok");
  CHECK(fs[0].evidence == "ibv_devinfo -v: state PORT_ACTIVE, GID ::ffff:169.254.205.255");

  text.erase(text.find("            GID[  1]"),
             text.find("            GID[  2]") - text.find("            GID[  1]"));
  sec(c, "ibv_devinfo_v", text);
  fs = judge_rdma(read_host_result("mini-a", c, {}), {"en2"});
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].verdict == "fail");
  CHECK(fs[0].cause ==
        "no IPv4-mapped GID (::ffff:a.b.c.d): JACCL cannot address this port (MLX #4191)");
}

TEST_CASE("RDMA: a port that is not PORT_ACTIVE fails") {
  auto c = host_capture("Darwin");
  sec(c, "ibv_devinfo_v", read_data("probe/ibv_devinfo_m5max_mbp_B_port_down_anonymized.txt"));
  auto fs = judge_rdma(read_host_result("mbp-b", c, {}), {"en6"});
  REQUIRE(fs.size() == 1);
  CHECK(fs[0].verdict == "fail");
  CHECK(fs[0].subject == "rdma_en6 port 1");
  CHECK(has(fs[0].cause, "not PORT_ACTIVE"));
}

TEST_CASE("a TB5 cable at 40 Gb/s between TB5 Macs is a warning; 80 Gb/s passes") {
  auto hosts =
      test::scenario_hosts("ring4_m3ultra_rdma", {"studio-a", "studio-b", "studio-c", "studio-d"});
  auto t = topology::build_topology(hosts);
  auto fs = judge_speeds(t);
  REQUIRE(fs.size() == 4);
  for (const auto& f : fs) CHECK(f.verdict == "ok");
  // One cable negotiated at 40 Gb/s on both ends.
  const auto& l = t.links[0];
  for (auto [host, port] : {std::pair{l.a, l.pa}, std::pair{l.b, l.pb}})
    for (auto& p : hosts[size_t(host)].thunderbolt.ports)
      if (p.domain_uuid == t.hosts[size_t(host)].ports[size_t(port)].uuid) p.speed = "40 Gb/s";
  auto slow = judge_speeds(topology::build_topology(hosts));
  int warned = 0;
  for (const auto& f : slow)
    if (f.verdict == "warn") {
      ++warned;
      CHECK(f.subject.find(t.hosts[size_t(l.a)].name) != std::string::npos);
      CHECK(has(f.evidence, "linked at 40 Gb/s; both Macs have ports up to 120 Gb/s"));
      CHECK(has(f.cause, "a Thunderbolt 3/4 cable, or a dock or hub in the path"));
    }
  CHECK(warned == 1);
}

TEST_CASE("the watch reads a Mac's link speeds from system_profiler, per interface") {
  // M5 Max B (real capture): Thunderbolt 2 (en6) cabled to a Mac at 80 Gb/s,
  // Thunderbolt 3 (en2) a TB3 enclosure at 40 Gb/s, Thunderbolt 1 (en1) idle.
  auto ports =
      probe::parse_hardware_ports(read_data("probe/networksetup_m5max_mbp_B_anonymized_macs.txt"));
  auto c = host_capture("Darwin");
  sec(c, "tb_json", read_data("probe/system_profiler_tb_m5max_mbp_B_rdma_enabled_anonymized.json"));
  std::vector<Hop> hops{{"mbp-b", "en6", "mbp-a", "10.213.0.1", "link", true},
                        {"mbp-b", "en2", "disk", "10.213.0.5", "link", true},
                        {"mbp-b", "en1", "nothing", "10.213.0.9", "link", true}};
  auto r = read_host_result("mbp-b", c, hops, ports);
  CHECK(r.hops[0].speed_mbps == 80000);
  CHECK(r.hops[1].speed_mbps == 40000);
  CHECK(r.hops[2].speed_mbps == 0);
  HopResult slower = r.hops[0];
  slower.speed_mbps = 40000;
  CHECK(hop_changes(hops[0], r.hops[0], r.hops[0], slower) ==
        std::vector<std::string>{"speed changed from 80000 to 40000 Mb/s"});
}

TEST_CASE("the watch reports a route that moved, a hop that went down and came back, slow RTT") {
  Hop h = link_hop();
  HopResult good;
  good.route_iface = "tb3";
  good.connected = true;
  good.rtt_ms = 0.2;
  CHECK(hop_changes(h, std::nullopt, std::nullopt, good).empty());
  CHECK(hop_changes(h, good, good, good).empty());

  HopResult moved = good;
  moved.route_iface = "eth0";
  CHECK(hop_changes(h, good, good, moved) ==
        std::vector<std::string>{"route moved from tb3 to eth0"});

  HopResult down;
  down.link = "down";
  down.errno_name = "ETIMEDOUT";
  auto c = hop_changes(h, good, good, down);
  CHECK(std::find(c.begin(), c.end(), "tb3 went from up to down") != c.end());
  CHECK(std::find(c.begin(), c.end(), "down: interface down") != c.end());
  CHECK(hop_changes(h, down, good, good) == std::vector<std::string>{"route moved from none to tb3",
                                                                     "tb3 went from down to up",
                                                                     "up again"});

  HopResult slow = good;
  slow.rtt_ms = 2.5;  // over 3x and over 2 ms more
  CHECK(hop_changes(h, good, good, slow) ==
        std::vector<std::string>{"connect time 2.50 ms, over 3x the first round's 0.20 ms"});
  HopResult jitter = good;
  jitter.rtt_ms = 1.9;  // over 3x but under the 2 ms floor: noise on a cable
  CHECK(hop_changes(h, good, good, jitter).empty());

  HopResult first_bad;
  first_bad.route_iface = "eth0";
  first_bad.errno_name = "ETIMEDOUT";
  first_bad.errno_text = "Connection timed out";
  CHECK(hop_changes(h, std::nullopt, std::nullopt, first_bad) ==
        std::vector<std::string>{"down: ETIMEDOUT (Connection timed out)",
                                 "route leaves by eth0, not tb3"});
}

TEST_CASE("--doctor and --watch refuse bad combinations and values with one line and exit 2") {
  const std::string pair = (test::data_dir() / "scenarios" / "pair2_m3ultra_double_cable").string();
  auto err = [&](std::vector<std::string> args) {
    args.insert(args.end(), {"--hosts", "studio-a,studio-b"});
    auto r = test::run_tool(args);
    CHECK(r.status == 2);
    auto e = r.err;
    while (!e.empty() && e.back() == '\n') e.pop_back();
    return e.substr(e.rfind('\n') == std::string::npos ? 0 : e.rfind('\n') + 1);
  };
  CHECK(err({"--doctor", "--from-probes", pair}) ==
        "distconfig: error: --doctor: needs the hosts themselves, not saved probes; drop "
        "--from-probes");
  CHECK(err({"--count", "3"}) ==
        "distconfig: error: --count: only applies with --watch; add --watch SECONDS");
  CHECK(err({"--fail-on-drift"}) ==
        "distconfig: error: --fail-on-drift: only applies with --watch; add --watch SECONDS");
  // 0 is no interval either: it once turned --watch off without a word.
  for (const char* bad : {"0.01", "0", "nan", "1e9"})
    CHECK(err({"--watch", bad}) ==
          "distconfig: error: --watch: the interval must be 0.1 to 86400 seconds; e.g. --watch 30");
  // Before any host is probed (it was found after the probes and the plan).
  CHECK(err({"--watch", "5", "--history", "/nonexistent-distkit/h.jsonl"}) ==
        "distconfig: error: --history: no directory /nonexistent-distkit for "
        "/nonexistent-distkit/h.jsonl; create it, or give a path in an existing directory");
  CHECK(err({"--doctor", "--watch", "5"}) ==
        "distconfig: error: --doctor: cannot be combined with --watch; run one, then the other");
  CHECK(err({"--watch", "5", "--json"}) ==
        "distconfig: error: --json: --watch writes its JSON lines to --history; read the history "
        "file (one JSON object per line)");
  // Not CLI11's "Could not convert: --count = 99999999999".
  CHECK(err({"--watch", "5", "--count", "99999999999"}) ==
        "distconfig: error: --count: 99999999999 is out of range; give a whole number from 0 to "
        "2147483647; see distconfig --help");
  CHECK(err({"--doctor", "--test-port", "nan"}) ==
        "distconfig: error: --test-port: \"nan\" is not a whole number; give one from 1 to "
        "65535; see distconfig --help");
  CHECK(err({"--doctor", "--test-port", "70000"}) ==
        "distconfig: error: --test-port: 70000 is out of range; give a whole number from 1 to "
        "65535; see distconfig --help");
  CHECK(err({"--doctor", "--over", "ethernet"}) ==
        "distconfig: error: --doctor: checks the Thunderbolt links; use --over thunderbolt (the "
        "default), with --links for named interfaces");
  CHECK(err({"--doctor", "--check"}) ==
        "distconfig: error: --doctor: cannot be combined with setup, --verify, --check, --dot or "
        "--matrix; run it on its own");
}

namespace {

struct Ring4 {
  Gathered g;
  topology::Topology t;
  netsetup::Plan plan;
};

Ring4 ring4() {
  Ring4 r;
  r.g.infos =
      test::scenario_hosts("ring4_m3ultra_rdma", {"studio-a", "studio-b", "studio-c", "studio-d"});
  r.g.executors.resize(4);
  r.t = topology::build_topology(r.g.infos);
  r.plan = netsetup::plan_addresses(netsetup::cables_from_topology(r.t),
                                    netsetup::parse_subnet("10.213.0.0/16", "--subnet"), {});
  return r;
}

int count_kind(const LinkChecks& lc, const std::string& kind) {
  return int(
      std::count_if(lc.hops.begin(), lc.hops.end(), [&](const Hop& h) { return h.kind == kind; }));
}

}  // namespace

TEST_CASE("the hops: both ends of every cable, and the jaccl coordinator connection") {
  auto r = ring4();
  Options o;
  o.backend = "ring";
  auto ring = plan_link_checks(o, r.g, r.t, r.plan);
  CHECK(count_kind(ring, "link") == 8);  // 4 cables, both ways
  CHECK(count_kind(ring, "coordinator") == 0);
  for (size_t i = 0; i < 4; ++i) CHECK(ring.by_host[i].size() == 2);
  CHECK(ring.tb_ifaces[0].count(ring.hops[ring.by_host[0][0]].iface) == 1);

  o.backend = "jaccl";
  auto jaccl = plan_link_checks(o, r.g, r.t, r.plan);
  CHECK(count_kind(jaccl, "coordinator") == 3);  // every host but rank 0, to rank 0
  for (const auto& h : jaccl.hops)
    if (h.kind == "coordinator") {
      CHECK(h.peer == "studio-a");
      CHECK(h.address == r.g.infos[0].management_address());
      CHECK(h.name() == h.host + " -> studio-a (" + h.address + ", coordinator)");
    }
}

TEST_CASE("a hostfile's ring hops go to every address of the next rank, cabled or not") {
  auto r = ring4();
  auto dir = std::filesystem::temp_directory_path() / "distkit-doctor-test";
  std::filesystem::create_directories(dir);
  auto path = dir / "lan.json";
  std::ofstream(path) << R"({"backend": "ring", "hosts": [
    {"ssh": "studio-a", "ips": ["10.10.0.11"]}, {"ssh": "studio-c", "ips": ["10.10.0.13"]},
    {"ssh": "studio-b", "ips": ["10.10.0.12"]}, {"ssh": "studio-d", "ips": ["10.10.0.14"]}]})";
  Options o;
  o.hostfile = path;
  auto lc = plan_link_checks(o, r.g, r.t, r.plan);
  CHECK(count_kind(lc, "ring") == 4);
  for (const auto& h : lc.hops) {
    if (h.kind != "ring") continue;
    // The scenario's ring is a-b-c-d-a: a-c and b-d share no cable.
    bool diagonal = (h.host == "studio-a" && h.peer == "studio-c") ||
                    (h.host == "studio-b" && h.peer == "studio-d");
    CHECK(h.cabled == !diagonal);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("--test-port may not be one of the job's ports") {
  auto r = ring4();
  Options o;
  o.job_port = 32320;  // the ring takes 4 hosts x 2 cables: 32320-32327
  try {
    plan_link_checks(o, r.g, r.t, r.plan);
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "--test-port: 32322 is one of the job's ports (32320-32327: the ring's and the jaccl "
          "coordinator's, from --job-port); pick a port outside that range, e.g. 32319");
  }
  o.job_port = 32323;
  CHECK_NOTHROW(plan_link_checks(o, r.g, r.t, r.plan));
}

namespace {

// templates/doctor_host.sh on a stand-in Mac: shell functions (they win
// over PATH) named after the Mac commands answer from the real captures,
// and each call is logged. One hop to this host's own 127.0.0.1, so the
// script's listener and its connect meet.
struct StandInMac {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("doctor-fakemac-" + std::to_string(::getpid()));
  StandInMac() {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~StandInMac() { std::filesystem::remove_all(dir); }
  std::string run(const std::string& script, const std::string& boundary) {
    auto d = test::data_dir().string();
    std::ofstream(dir / "run.sh")
        << "LOG=" << (dir / "calls").string() << "\n"
        << "uname() { echo Darwin; }\n"
        << "route() { echo \"route $*\" >>\"$LOG\"; cat " << d
        << "/doctor/route_n_get_onlink_en0_blog.txt; }\n"
        << "ifconfig() { echo \"ifconfig $*\" >>\"$LOG\"; sed 's/^en2:/en0:/' " << d
        << "/netsetup/ifconfig_en2_tb_interface_apple_tn3205.txt; }\n"
        << "networksetup() { echo \"networksetup $*\" >>\"$LOG\"; cat " << d
        << "/doctor/networksetup_getcurrentlocation_automatic.txt; }\n"
        << "ibv_devinfo() { echo \"ibv_devinfo $*\" >>\"$LOG\"; cat " << d
        << "/probe/ibv_devinfo_v_rdma_en2_gid_table_apple_tn3205_partial.txt; }\n"
        << "system_profiler() { echo \"system_profiler $*\" >>\"$LOG\"; return 1; }\n"
        << "set -- " << boundary << "\n"
        << script;
    std::system(
        ("sh " + (dir / "run.sh").string() + " >" + (dir / "out").string() + " 2>&1").c_str());
    return distkit::read_file(dir / "out");
  }
  std::string calls() {
    return std::filesystem::exists(dir / "calls") ? distkit::read_file(dir / "calls") : "";
  }
};

}  // namespace

TEST_CASE("the check script on a stand-in Mac: its commands' output becomes the verdicts") {
  StandInMac mac;
  std::vector<Hop> hops{{"mac", "en0", "mac", "127.0.0.1", "link", true}};
  Options o;
  o.test_port = 32000 + ::getpid() % 1000;
  // The state file an earlier setup left, with its location record.
  const auto state = (mac.dir / "netsetup.state").string();
  std::ofstream(state) << "addr en0 10.213.0.1/30\nlocation Automatic\n";
  auto out = mac.run(link_check_script(o, "mac", hops, {0}, true, false, 0, state), "BOUNDARY-X");
  auto r = read_host_result("mac", probe::parse_capture(out, "mac"), hops);
  r.state_file = state;
  INFO(out);
  CHECK(r.macos);
  CHECK(r.error.empty());
  auto fs = judge_hops(hops, r, {"en0"}, o.test_port);
  CHECK(find(fs, "route").verdict == "ok");
  CHECK(find(fs, "route").evidence == "route -n get 127.0.0.1: interface: en0");
  CHECK(find(fs, "link").evidence == "ifconfig en0: status: active");
  CHECK(find(fs, "connect").verdict == "ok");
  auto host = judge_host(r);
  REQUIRE(host.size() == 1);
  CHECK(host[0].verdict == "ok");
  CHECK(host[0].evidence ==
        "networksetup -getcurrentlocation: Automatic; " + state + ": location Automatic");
  auto rdma = judge_rdma(r, {"en2"});
  REQUIRE(rdma.size() == 1);
  CHECK(rdma[0].verdict == "ok");
  CHECK(mac.calls() ==
        "route -n get 127.0.0.1\nifconfig en0\nnetworksetup -getcurrentlocation\nibv_devinfo -v\n");
}

TEST_CASE("the watch's script runs no RDMA command, and asks a Mac for its link speeds") {
  StandInMac mac;
  std::vector<Hop> hops{{"mac", "en0", "mac", "127.0.0.1", "link", true}};
  Options o;
  o.test_port = 33000 + ::getpid() % 1000;
  auto out =
      mac.run(link_check_script(o, "mac", hops, {0}, false, true, 1 << 20, ""), "BOUNDARY-Y");
  auto r = read_host_result("mac", probe::parse_capture(out, "mac"), hops);
  INFO(out);
  REQUIRE(r.hops.size() == 1);
  CHECK(r.hops[0].connected);
  CHECK(r.hops[0].mbps > 0);  // the 1 MiB sample went through
  CHECK_FALSE(r.ibv_devinfo_verbose);
  auto calls = mac.calls();
  CHECK(calls.find("ibv_") == std::string::npos);
  CHECK(calls.find("system_profiler SPThunderboltDataType -json") != std::string::npos);
}
