// Mesh check, RDMA readiness and the automatic backend choice.
#include "distkit/topology/analysis.hpp"

#include "builders.hpp"
#include "catch.hpp"
#include "distkit/topology/render.hpp"

using namespace distkit;
using namespace distkit::topology;

namespace {
std::vector<probe::HostInfo> ring4(bool rdma_on_c = true, const std::string& speed = "80 Gb/s") {
  auto a = test::mac("a", 4), b = test::mac("b", 4), c = test::mac("c", 4, rdma_on_c),
       d = test::mac("d", 4);
  test::cable(a, 1, b, 1, speed);
  test::cable(b, 2, c, 1, speed);
  test::cable(c, 2, d, 1, speed);
  test::cable(d, 2, a, 2, speed);
  return {a, b, c, d};
}
}  // namespace

TEST_CASE("a ring of RDMA hosts is not a mesh and chooses jaccl-ring") {
  auto hosts = ring4();
  auto t = build_topology(hosts);
  auto a = analyze(t, hosts);
  CHECK_FALSE(a.mesh());
  REQUIRE(a.missing.size() == 2);
  CHECK(t.hosts[size_t(a.missing[0].a)].name == "a");
  CHECK(t.hosts[size_t(a.missing[0].b)].name == "c");
  REQUIRE(a.ring);
  CHECK(a.ring_rdma.ready());
  CHECK(choose_backend(a) == Choice::jaccl_ring);
}

TEST_CASE("a missing pair's hosts have their free ports named") {
  auto hosts = ring4();
  auto t = build_topology(hosts);
  auto a = analyze(t, hosts);
  CHECK(free_ports_text(t, a.missing[0].a) == "a: Thunderbolt 3 (en4), Thunderbolt 4 (en5)");
  CHECK(free_ports_text(t, a.missing[0].b) == "c: Thunderbolt 3 (en4), Thunderbolt 4 (en5)");
}

TEST_CASE("a host without its rdma device needs Recovery; auto falls back to ring") {
  auto hosts = ring4(false);
  auto t = build_topology(hosts);
  auto a = analyze(t, hosts);
  REQUIRE(a.ring_rdma.hosts_missing.size() == 1);
  CHECK(t.hosts[size_t(a.ring_rdma.hosts_missing[0].host)].name == "c");
  CHECK(a.ring_rdma.hosts_missing[0].missing_devices ==
        std::vector<std::string>{"rdma_en2", "rdma_en3"});
  CHECK(choose_backend(a) == Choice::ring);
}

TEST_CASE("only the devices of used links count, not any rdma_ device") {
  auto hosts = ring4();
  // c keeps rdma_en4/en5 (unused ports) but loses the ones on its ring links.
  hosts[2].rdma_devices = {{"rdma_en4"}, {"rdma_en5"}};
  auto a = analyze(build_topology(hosts), hosts);
  CHECK_FALSE(a.ring_rdma.ready());
  CHECK(choose_backend(a) == Choice::ring);
}

TEST_CASE("TB4 links are reported as such, not as RDMA disabled") {
  auto hosts = ring4(true, "40 Gb/s");
  auto t = build_topology(hosts);
  auto a = analyze(t, hosts);
  CHECK(a.ring_rdma.hosts_missing.empty());
  CHECK(a.ring_rdma.tb4_links.size() == 4);
  CHECK(choose_backend(a) == Choice::ring);
  CHECK(link_name(t, a.ring_rdma.tb4_links[0]) == "a en2 <-> b en2");
}

TEST_CASE("a full mesh with RDMA chooses jaccl") {
  auto a = test::mac("a", 3), b = test::mac("b", 3), c = test::mac("c", 3);
  test::cable(a, 1, b, 1);
  test::cable(a, 2, c, 1);
  test::cable(b, 2, c, 2);
  std::vector<probe::HostInfo> hosts{a, b, c};
  auto an = analyze(build_topology(hosts), hosts);
  CHECK(an.mesh());
  CHECK(an.mesh_links.size() == 3);
  CHECK(choose_backend(an) == Choice::jaccl);
}

TEST_CASE("more than 10 queue pairs on one device is refused with the reason") {
  // Eleven peers behind one hub on x's port 1.
  std::vector<probe::HostInfo> hosts{test::mac("x", 1)};
  for (int i = 0; i < 11; ++i) {
    hosts.push_back(test::mac("p" + std::to_string(i), 1));
    test::cable(hosts[0], 1, hosts.back(), 1);
  }
  auto t = build_topology(hosts);
  std::vector<int> all;
  for (size_t l = 0; l < t.links.size(); ++l) all.push_back(int(l));
  auto r = check_rdma(t, hosts, all);
  REQUIRE(r.over_limit.size() == 1);
  CHECK(t.hosts[size_t(r.over_limit[0].host)].name == "x");
  CHECK(r.over_limit[0].device == "rdma_en2");
  CHECK(r.over_limit[0].queue_pairs == 11);
  CHECK_FALSE(r.ready());
}

TEST_CASE("no mesh and no ring chooses nothing") {
  auto a = test::mac("a", 2), b = test::mac("b", 2), c = test::mac("c", 2);
  test::cable(a, 1, b, 1);
  test::cable(b, 2, c, 1);
  std::vector<probe::HostInfo> hosts{a, b, c};
  CHECK(choose_backend(analyze(build_topology(hosts), hosts)) == Choice::none);
}
