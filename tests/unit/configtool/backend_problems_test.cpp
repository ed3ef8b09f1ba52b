// What keeps a backend from running, as Problems: a link's subject is its
// two ends (its speed is in the text), a device's is host and device.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../topology/builders.hpp"
#include "catch.hpp"
#include "distkit/topology/analysis.hpp"
#include "distkit/topology/topology.hpp"
#include "thunderbolt_flow.hpp"

namespace {

using namespace distkit;

// The Problem of `kind` that keeps `backend` off these hosts, if any.
std::optional<Problem> problem_of(const std::vector<probe::HostInfo>& hosts,
                                  const std::string& backend, const std::string& kind) {
  auto t = topology::build_topology(hosts);
  auto ps = configtool::backend_problems(backend, t, topology::analyze(t, hosts));
  auto it = std::find_if(ps.begin(), ps.end(), [&](const Problem& p) { return p.kind == kind; });
  if (it == ps.end()) return std::nullopt;
  return *it;
}

}  // namespace

TEST_CASE("a Thunderbolt 4 link keeps jaccl off: the link by its ends, its speed in the text") {
  std::vector<probe::HostInfo> hosts{test::mac("a", 1), test::mac("b", 1)};
  test::cable(hosts[0], 1, hosts[1], 1, "40 Gb/s");
  auto p = problem_of(hosts, "jaccl", "tb4-link");
  REQUIRE(p);
  CHECK(p->subject == "a en2 <-> b en2");
  CHECK(p->problem == "RDMA needs Thunderbolt 5, and this link runs at 40 Gb/s");
  CHECK(p->remedy == "use ring");
  CHECK_FALSE(problem_of(hosts, "ring", "tb4-link"));
}

TEST_CASE("more queue pairs than a device has: the device is the subject") {
  // A full mesh of 12 with eleven peers behind one hub on x's port 1
  // (TN3205: 10 per device); the peers are cabled to each other directly.
  std::vector<probe::HostInfo> hosts{test::mac("x", 1)};
  for (int i = 0; i < 11; ++i) hosts.push_back(test::mac("p" + std::to_string(i), 11));
  auto port_to = [](int i, int j) { return 2 + (j < i ? j : j - 1); };  // p_i's port to p_j
  for (int i = 0; i < 11; ++i) {
    test::cable(hosts[0], 1, hosts[size_t(i + 1)], 1);
    for (int j = i + 1; j < 11; ++j)
      test::cable(hosts[size_t(i + 1)], port_to(i, j), hosts[size_t(j + 1)], port_to(j, i));
  }
  auto p = problem_of(hosts, "jaccl", "too-many-queue-pairs");
  REQUIRE(p);
  CHECK(p->subject == "x rdma_en2");
  CHECK(p->problem == "11 queue pairs, more than the 10 a device supports (TN3205)");
  CHECK_FALSE(p->remedy.empty());
}
