// The ring backend's hostfile is the address plan seen through the ring:
// with the reference's 192.168.0.0/16 range, the plan and the ring search
// together give the reference's ring hostfiles byte for byte (mesh, ring,
// double cable: the last lists both cables' addresses).
#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/netsetup/from_topology.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/topology/analysis.hpp"
#include "distkit/topology/hostfiles.hpp"
#include "scenario.hpp"

using namespace distkit;

namespace {

std::string ring_hostfile_for(const std::string& scenario, const std::vector<std::string>& names) {
  auto infos = test::scenario_hosts(scenario, names);
  auto t = topology::build_topology(infos);
  auto a = topology::analyze(t, infos);
  REQUIRE(a.ring);
  auto plan = netsetup::plan_addresses(netsetup::cables_from_topology(t),
                                       netsetup::parse_subnet("192.168.0.0/16", "--subnet"), {});
  return hostfile::serialize(
      topology::ring_hostfile(t, netsetup::link_addresses(plan), *a.ring, {}));
}

const std::vector<std::string> kFour{"studio-a", "studio-b", "studio-c", "studio-d"};

}  // namespace

TEST_CASE("ring hostfiles from the plan in 192.168.0.0/16 are the reference's") {
  CHECK(ring_hostfile_for("mesh4_m3ultra_rdma", kFour) ==
        test::read_data("scenarios/mesh4_m3ultra_rdma/expected_ring.hostfile.json"));
  CHECK(ring_hostfile_for("ring4_m3ultra_rdma", kFour) ==
        test::read_data("scenarios/ring4_m3ultra_rdma/expected_ring.hostfile.json"));
  CHECK(ring_hostfile_for("pair2_m3ultra_double_cable", {"studio-a", "studio-b"}) ==
        test::read_data("scenarios/pair2_m3ultra_double_cable/expected_ring.hostfile.json"));
}
