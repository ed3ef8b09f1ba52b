// Golden tests: every shared scenario (tests/data/scenarios, generated with
// MLX's reference logic) gives byte-identical hostfiles and DOT output.
#include "builders.hpp"
#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/topology/analysis.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "distkit/topology/render.hpp"

using namespace distkit;
using namespace distkit::topology;
using distkit::test::read_data;

namespace {
const std::vector<std::string> kFour{"studio-a", "studio-b", "studio-c", "studio-d"};

struct Scenario {
  std::vector<probe::HostInfo> hosts;
  Topology t;
  Analysis a;
};

Scenario load(const std::string& name, const std::vector<std::string>& hosts) {
  Scenario s;
  s.hosts = test::scenario_hosts(name, hosts);
  s.t = build_topology(s.hosts);
  s.a = analyze(s.t, s.hosts);
  return s;
}

std::string expected(const std::string& scenario, const std::string& file) {
  return read_data("scenarios/" + scenario + "/" + file);
}
}  // namespace

TEST_CASE("mesh4: auto and jaccl give the reference jaccl hostfile") {
  auto s = load("mesh4_m3ultra_rdma", kFour);
  CHECK(s.a.mesh());
  CHECK(choose_backend(s.a) == Choice::jaccl);
  auto hf = hostfile::serialize(jaccl_hostfile(s.t, s.hosts, {}));
  CHECK(hf == expected("mesh4_m3ultra_rdma", "expected_auto.hostfile.json"));
  CHECK(hf == expected("mesh4_m3ultra_rdma", "expected_jaccl.hostfile.json"));
}

TEST_CASE("mesh4: DOT output is byte-identical to the reference") {
  auto s = load("mesh4_m3ultra_rdma", kFour);
  CHECK(render_dot(s.t) == expected("mesh4_m3ultra_rdma", "expected_dot.stdout.txt"));
}

// (The ring backend's hostfiles need the address plan: tests/unit/netsetup.)
TEST_CASE("ring4: auto gives jaccl-ring as the reference") {
  auto s = load("ring4_m3ultra_rdma", kFour);
  CHECK(choose_backend(s.a) == Choice::jaccl_ring);
  REQUIRE(s.a.ring);
  CHECK(hostfile::serialize(jaccl_ring_hostfile(s.t, s.hosts, *s.a.ring, {})) ==
        expected("ring4_m3ultra_rdma", "expected_auto.hostfile.json"));
}

TEST_CASE("ring4: jaccl is refused because studio-a and studio-c have no cable") {
  // The reference stops at the first missing pair; we name every one.
  auto s = load("ring4_m3ultra_rdma", kFour);
  REQUIRE(s.a.missing.size() == 2);
  CHECK(free_ports_text(s.t, s.a.missing[0].a) ==
        "studio-a: Thunderbolt 1 (en2), Thunderbolt 4 (en5), Thunderbolt 5 (en6), Thunderbolt 6 "
        "(en7)");
  CHECK(free_ports_text(s.t, s.a.missing[0].b) ==
        "studio-c: Thunderbolt 1 (en2), Thunderbolt 4 (en5), Thunderbolt 5 (en6), Thunderbolt 6 "
        "(en7)");
  CHECK(s.t.hosts[size_t(s.a.missing[1].a)].name == "studio-b");
  CHECK(s.t.hosts[size_t(s.a.missing[1].b)].name == "studio-d");
}

TEST_CASE("pair2: two cables; jaccl uses the first, the ring is two wide") {
  auto s = load("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
  CHECK(s.t.count[0][1] == 2);
  CHECK(choose_backend(s.a) == Choice::jaccl);
  CHECK(hostfile::serialize(jaccl_hostfile(s.t, s.hosts, {})) ==
        expected("pair2_m3ultra_double_cable", "expected_jaccl.hostfile.json"));
  REQUIRE(s.a.ring);
  CHECK(s.a.ring->width == 2);
}

TEST_CASE("chain3: neither mesh nor ring; partial rings as the reference lists them") {
  auto s = load("chain3_m3ultra_missing_cable", {"studio-a", "studio-b", "studio-c"});
  CHECK(choose_backend(s.a) == Choice::none);
  CHECK_FALSE(s.a.ring);
  auto partial = longest_partial_rings(s.t.count);
  REQUIRE(partial.size() == 2);
  CHECK(partial[0].order == std::vector<int>{0, 1});
  CHECK(partial[1].order == std::vector<int>{1, 2});
  CHECK(render_dot(s.t) == expected("chain3_m3ultra_missing_cable", "expected_dot.stdout.txt"));
}

// exo#2160: two cables between a pair, each end's device picked on its own,
// so "rail 0" was one cable on one side and the other cable on the other:
// model loading deadlocked. Here studio-b's ports are numbered the other way
// round (Thunderbolt 2 is en4, Thunderbolt 3 is en3: enX cannot be computed
// from N), so the same cable has a different name at each end: rail k must
// still be one cable, named by each end.
TEST_CASE("pair2, crossed names: rail k is the same cable at both ends of a pair") {
  auto hosts = test::scenario_hosts("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
  for (auto& p : hosts[1].hardware_ports) {
    if (p.name == "Thunderbolt 2")
      p.device = "en4";
    else if (p.name == "Thunderbolt 3")
      p.device = "en3";
  }
  // The cables, from the captures: receptacle 2 to 2, and 3 to 3.
  const std::vector<std::pair<std::string, std::string>> cables = {{"en3", "en4"}, {"en4", "en3"}};
  auto t = build_topology(hosts);
  auto a = analyze(t, hosts);
  REQUIRE(a.ring);
  REQUIRE(a.ring->width == 2);
  auto ring = jaccl_ring_hostfile(t, hosts, *a.ring, {});
  using Rail = std::vector<std::string>;
  CHECK(ring.hosts[0].rdma[1] == hostfile::RdmaEntry(Rail{"rdma_en3", "rdma_en4"}));
  CHECK(ring.hosts[1].rdma[0] == hostfile::RdmaEntry(Rail{"rdma_en4", "rdma_en3"}));
  for (size_t k = 0; k < 2; ++k) {
    INFO("rail " << k);
    CHECK(std::get<Rail>(ring.hosts[0].rdma[1])[k] == "rdma_" + cables[k].first);
    CHECK(std::get<Rail>(ring.hosts[1].rdma[0])[k] == "rdma_" + cables[k].second);
  }
  // jaccl uses one cable per pair: the same one from both ends.
  auto mesh = jaccl_hostfile(t, hosts, {});
  CHECK(mesh.hosts[0].rdma[1] == hostfile::RdmaEntry(std::string("rdma_en3")));
  CHECK(mesh.hosts[1].rdma[0] == hostfile::RdmaEntry(std::string("rdma_en4")));
  // The ring over TCP: ips[k] at both ends are the two addresses of one cable.
  REQUIRE(t.links.size() == 2);
  std::vector<LinkAddresses> plan;
  for (size_t l = 0; l < t.links.size(); ++l) {
    const auto& link = t.links[l];
    std::string a_end = t.hosts[size_t(link.a)].name + ":" + t.iface(link.a, link);
    std::string b_end = t.hosts[size_t(link.b)].name + ":" + t.iface(link.b, link);
    plan.push_back({a_end, b_end});  // stand-ins for addresses: the ends' names
  }
  auto tcp = ring_hostfile(t, plan, *a.ring, {});
  CHECK(tcp.hosts[0].ips == std::vector<std::string>{"studio-a:en3", "studio-a:en4"});
  CHECK(tcp.hosts[1].ips == std::vector<std::string>{"studio-b:en4", "studio-b:en3"});
}
