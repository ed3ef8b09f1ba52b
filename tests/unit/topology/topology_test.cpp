// Links from port UUIDs on real captures and synthetic hosts: reciprocal
// pairs, docks, asymmetric links, parallel cables, unmapped receptacles.
#include "distkit/topology/topology.hpp"

#include "builders.hpp"
#include "catch.hpp"

using namespace distkit;
using namespace distkit::topology;
using distkit::test::read_data;

namespace {
probe::HostInfo real(const std::string& name, const std::string& sp, const std::string& ns) {
  probe::Capture c;
  c.sections["system_profiler_SPThunderboltDataType"] = {read_data("probe/" + sp), 0};
  if (!ns.empty()) c.sections["networksetup_listallhardwareports"] = {read_data("probe/" + ns), 0};
  return probe::build_host_info(name, c);
}
}  // namespace

TEST_CASE("the real MacBook and Studio captures form one reciprocal TB5 link") {
  auto mbp = real("mbp", "system_profiler_tb_m5max_mbp_cabled_to_m3ultra_studio.json",
                  "networksetup_m4max_mbp_3tb_no_bridge_trimmed.txt");
  auto studio = real("studio", "system_profiler_tb_m3ultra_studio_cabled_to_m5max_mbp.json",
                     "networksetup_m3ultra_studio_6tb_no_bridge_trimmed.txt");
  auto t = build_topology({mbp, studio});
  REQUIRE(t.links.size() == 1);
  const Link& l = t.links[0];
  CHECK(l.symmetric());
  CHECK(l.tb5());
  CHECK(l.gbps == 80);
  CHECK(t.iface(0, l) == "en1");  // MacBook receptacle 1
  CHECK(t.iface(1, l) == "en3");  // Studio receptacle 2
  CHECK(t.count[0][1] == 1);
  CHECK(t.external.empty());
  // The Studio's drive occupies a port: it is not free.
  for (const Port* p : t.free_ports(1)) CHECK(p->receptacle != "4");
  CHECK(t.free_ports(1).size() == 4);
}

TEST_CASE("MacBooks A and B: A's ports without networksetup are reported, not a crash") {
  auto a = real("a", "system_profiler_tb_m5max_mbp_A_rdma_disabled_anonymized.json", "");
  auto b = real("b", "system_profiler_tb_m5max_mbp_B_rdma_enabled_anonymized.json",
                "networksetup_m5max_mbp_B_anonymized_macs.txt");
  auto t = build_topology({a, b});
  REQUIRE(t.links.size() == 1);
  CHECK(t.links[0].symmetric());
  CHECK(t.iface(0, t.links[0]).empty());
  CHECK(t.iface(1, t.links[0]) == "en6");  // B's Thunderbolt 2 is en6
  CHECK(t.hosts[0].unmapped_receptacles.size() == 3);
  CHECK(t.hosts[1].unmapped_receptacles.empty());
}

TEST_CASE("a link only one side lists is kept and marked asymmetric") {
  auto x = test::mac("x", 3), y = test::mac("y", 3);
  test::cable(x, 2, y, 1, "80 Gb/s", false);
  auto t = build_topology({x, y});
  REQUIRE(t.links.size() == 1);
  CHECK_FALSE(t.links[0].symmetric());
  CHECK(t.links[0].seen_by_a);
  CHECK(t.count[1][0] == 1);
  // Seen only from the second host: still one link, a = the host that lists it.
  auto t2 = build_topology({y, x});
  REQUIRE(t2.links.size() == 1);
  CHECK(t2.links[0].a == 1);
}

TEST_CASE("parallel cables are counted and a TB4 link is not TB5") {
  auto x = test::mac("x", 3), y = test::mac("y", 3);
  test::cable(x, 1, y, 1);
  test::cable(x, 2, y, 2, "40 Gb/s");
  auto t = build_topology({x, y});
  CHECK(t.count[0][1] == 2);
  REQUIRE(t.links.size() == 2);
  CHECK(t.links[0].tb5());
  CHECK_FALSE(t.links[1].tb5());
  CHECK(t.links_between(1, 0) == std::vector<int>{0, 1});
}

TEST_CASE("a peer that is not among the hosts is reported as external") {
  auto x = test::mac("x", 2);
  x.thunderbolt.ports[0].peers.push_back({"SOMEONE-ELSE"});
  auto t = build_topology({x});
  CHECK(t.links.empty());
  REQUIRE(t.external.size() == 1);
  CHECK(t.external[0].uuid == "SOMEONE-ELSE");
}

TEST_CASE("ports are ordered by interface name, like MLX") {
  auto x = test::mac("x", 2);
  x.hardware_ports[0].device = "en9";
  auto t = build_topology({x});
  CHECK(t.hosts[0].ports[0].iface == "en3");
  CHECK(t.hosts[0].ports[1].iface == "en9");
}
