// The address plan: one /30 per cable, the same for the same cabling
// whatever the probe or file order, and re-planned around addresses and
// routes the hosts already have.
#include <algorithm>
#include <set>

#include "catch.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/util/error.hpp"
#include "scenario.hpp"

using namespace distkit;
using namespace distkit::netsetup;
using distkit::test::read_data;

namespace {

const std::vector<std::string> kFour{"studio-a", "studio-b", "studio-c", "studio-d"};

Cidr subnet(const char* s) {
  return parse_subnet(s, "--subnet");
}

// The reference's steps for every host, rebuilt from our plan.
std::map<std::string, test::RefHost> steps_of(const Plan& plan,
                                              const std::vector<std::string>& hosts) {
  std::map<std::string, test::RefHost> out;
  for (const auto& h : hosts) {
    out[h].bridge_down = true;
    for (const auto* l : links_of(plan, h)) {
      const Endpoint& me = l->cable.a.host == h ? l->cable.a : l->cable.b;
      out[h].steps.push_back({me.iface, l->address_of(me), "255.255.255.252",
                              l->peer_address_of(me) + "%" + me.iface});
    }
  }
  return out;
}

void check_reference(const std::string& scenario, const std::vector<std::string>& hosts) {
  auto t = test::scenario_topology(scenario, hosts);
  auto plan = plan_addresses(cables_from_topology(t), subnet("192.168.0.0/16"), {});
  auto want =
      test::parse_reference_setup(read_data("scenarios/" + scenario + "/expected_auto.stdout.txt"));
  REQUIRE(want.size() == hosts.size());
  auto got = steps_of(plan, hosts);
  for (const auto& h : hosts) {
    INFO(scenario + " " + h);
    // Same links and addresses; the order within a host may differ.
    auto w = want[h].steps, g = got[h].steps;
    auto by_iface = [](const test::RefStep& x, const test::RefStep& y) {
      return x.iface < y.iface;
    };
    std::sort(w.begin(), w.end(), by_iface);
    std::sort(g.begin(), g.end(), by_iface);
    CHECK(g == w);
  }
}

}  // namespace

TEST_CASE(
    "with the reference's 192.168.0.0/16 the plan gives the reference's addresses (mesh, ring, "
    "double cable)") {
  check_reference("mesh4_m3ultra_rdma", kFour);
  check_reference("ring4_m3ultra_rdma", kFour);
  check_reference("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
}

TEST_CASE("the default subnet gives one /30 per cable in 10.213.0.0/16") {
  auto t = test::scenario_topology("mesh4_m3ultra_rdma", kFour);
  auto plan = plan_addresses(cables_from_topology(t), subnet(kDefaultSubnet), {});
  REQUIRE(plan.links.size() == 6);
  std::set<std::string> nets;
  for (const auto& l : plan.links) {
    nets.insert(l.net.str());
    CHECK(l.net.prefix == 30);
    CHECK(parse_cidr(kDefaultSubnet)->contains(l.net.network()));
  }
  CHECK(nets.size() == 6);
  CHECK(plan.links[0].addr_a == "10.213.0.1");
  CHECK(plan.links[0].addr_b == "10.213.0.2");
  CHECK(plan.skips.empty());
}

TEST_CASE("the plan does not depend on the order the hosts were probed in") {
  auto t1 = test::scenario_topology("ring4_m3ultra_rdma", kFour);
  auto t2 = test::scenario_topology("ring4_m3ultra_rdma",
                                    {"studio-c", "studio-a", "studio-d", "studio-b"});
  auto p1 = plan_addresses(cables_from_topology(t1), subnet(kDefaultSubnet), {});
  auto p2 = plan_addresses(cables_from_topology(t2), subnet(kDefaultSubnet), {});
  std::map<std::string, std::string> a1, a2;  // host:iface -> address
  for (const auto& l : p1.links) {
    a1[l.cable.a.str()] = l.addr_a;
    a1[l.cable.b.str()] = l.addr_b;
  }
  for (const auto& l : p2.links) {
    a2[l.cable.a.str()] = l.addr_a;
    a2[l.cable.b.str()] = l.addr_b;
  }
  CHECK(a1.size() == 8);
  CHECK(a1 == a2);
}

TEST_CASE("the double cable gets two /30s, one per cable") {
  auto t = test::scenario_topology("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
  auto plan = plan_addresses(cables_from_topology(t), subnet(kDefaultSubnet), {});
  REQUIRE(plan.links.size() == 2);
  CHECK(plan.links[0].net.str() == "10.213.0.0/30");
  CHECK(plan.links[1].net.str() == "10.213.0.4/30");
}

TEST_CASE("a host already using the default range is planned around, and the skips say why") {
  auto t = test::scenario_topology("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
  std::map<std::string, HostNet> hosts;
  hosts["studio-b"].addresses.push_back({"en0", *parse_cidr("10.213.0.5/29")});
  hosts["studio-a"].routes.push_back({"en0", *parse_cidr("10.213.0.16/30")});
  hosts["studio-a"].routes.push_back({"en0", Cidr{0, 0}});  // a default route collides with nothing
  auto plan = plan_addresses(cables_from_topology(t), subnet(kDefaultSubnet), {});
  auto moved = plan_addresses(cables_from_topology(t), subnet(kDefaultSubnet), hosts);
  CHECK(plan.links[0].net.str() == "10.213.0.0/30");
  CHECK(moved.links[0].net.str() == "10.213.0.8/30");
  CHECK(moved.links[1].net.str() == "10.213.0.12/30");
  CHECK(moved.skips ==
        std::vector<std::string>{"10.213.0.0/30: studio-b has 10.213.0.5/29 on en0",
                                 "10.213.0.4/30: studio-b has 10.213.0.5/29 on en0"});
  hosts["studio-a"].routes.push_back({"en0", *parse_cidr("10.213.0.8/29")});
  auto again = plan_addresses(cables_from_topology(t), subnet(kDefaultSubnet), hosts);
  CHECK(again.links[0].net.str() == "10.213.0.20/30");
}

TEST_CASE("what an earlier setup recorded as its own does not move the plan") {
  std::vector<Cable> cables{{{"h1", "eth1"}, {"h2", "eth1"}}};
  std::map<std::string, HostNet> hosts;
  hosts["h1"].addresses.push_back({"eth1", *parse_cidr("10.213.0.1/30")});
  hosts["h1"].routes.push_back({"eth1", *parse_cidr("10.213.0.0/30")});
  hosts["h1"].records = parse_state_records("addr eth1 10.213.0.1/30\n");
  auto plan = plan_addresses(cables, subnet(kDefaultSubnet), hosts);
  CHECK(plan.links[0].net.str() == "10.213.0.0/30");
  CHECK(plan.skips.empty());
  hosts["h1"].records.clear();  // the same address, not ours: planned around
  CHECK(plan_addresses(cables, subnet(kDefaultSubnet), hosts).links[0].net.str() ==
        "10.213.0.4/30");
}

TEST_CASE("a subnet too small for the cables is a usage error naming it") {
  std::vector<Cable> cables{{{"h1", "eth1"}, {"h2", "eth1"}}, {{"h1", "eth2"}, {"h3", "eth1"}}};
  std::map<std::string, HostNet> hosts;
  hosts["h3"].addresses.push_back({"eth0", *parse_cidr("10.9.9.5/32")});
  try {
    plan_addresses(cables, subnet("10.9.9.0/29"), hosts);
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "--subnet: 10.9.9.0/29 has no free /30 left for 2 cable(s) (1 in use on the hosts); "
          "pick a larger or another --subnet");
  }
}

TEST_CASE("--subnet must be a network between /8 and /30 without host bits") {
  CHECK(subnet("192.168.0.0/16").str() == "192.168.0.0/16");
  auto msg = [](const char* s) {
    try {
      parse_subnet(s, "--subnet");
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(msg("10.213.0.1/16") ==
        "--subnet: \"10.213.0.1/16\" has host bits set; did you mean 10.213.0.0/16?");
  CHECK(msg("10.0.0.0/31") ==
        "--subnet: /31 is outside /8../30; a /30 per cable needs a network of /30 or larger (and "
        "at most /8)");
  CHECK(msg("10.0.0.0") ==
        "--subnet: \"10.0.0.0\" is not an IPv4 network; write it as a.b.c.d/n, e.g. 10.213.0.0/16");
  CHECK(msg("10.0.0.256/24") ==
        "--subnet: \"10.0.0.256/24\" is not an IPv4 network; write it as a.b.c.d/n, e.g. "
        "10.213.0.0/16");
}
