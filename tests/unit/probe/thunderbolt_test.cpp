// system_profiler SPThunderboltDataType on every real capture.
#include "distkit/probe/thunderbolt.hpp"

#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::probe;
using distkit::test::read_data;

namespace {
TbReport load(const std::string& f) {
  return parse_system_profiler_thunderbolt(read_data("probe/" + f));
}
const TbPort* port(const TbReport& r, const std::string& receptacle) {
  for (auto& p : r.ports)
    if (p.receptacle == receptacle) return &p;
  return nullptr;
}
}  // namespace

TEST_CASE("M3 Ultra Studio: six ports, the MacBook on receptacle 2, a drive on 4") {
  auto r = load("system_profiler_tb_m3ultra_studio_cabled_to_m5max_mbp.json");
  CHECK(r.error.empty());
  CHECK(r.machine_name == "Mac Studio");
  REQUIRE(r.ports.size() == 6);
  auto* p2 = port(r, "2");
  REQUIRE(p2);
  REQUIRE(p2->peers.size() == 1);
  CHECK(p2->peers[0].domain_uuid == "817DCFA4-B481-4100-80FC-91C7AA969F0B");
  CHECK(p2->linked_gbps() == 80);
  auto* p4 = port(r, "4");
  REQUIRE(p4);
  CHECK(p4->peers.empty());
  CHECK(p4->connected);
  auto* p6 = port(r, "6");
  CHECK(p6->linked_gbps() == 0);
  CHECK(p6->max_gbps() == 120);
  CHECK_FALSE(p6->connected);
}

TEST_CASE("M5 Max MacBook: bus 0 cabled to the Studio, reciprocal UUID") {
  auto r = load("system_profiler_tb_m5max_mbp_cabled_to_m3ultra_studio.json");
  REQUIRE(r.ports.size() == 3);
  auto* p1 = port(r, "1");
  REQUIRE(p1);
  CHECK(p1->domain_uuid == "817DCFA4-B481-4100-80FC-91C7AA969F0B");
  REQUIRE(p1->peers.size() == 1);
  CHECK(p1->peers[0].domain_uuid.rfind("28CA4C30", 0) == 0);
}

TEST_CASE("MacBook A (RDMA disabled): peer on receptacle 2, a dock on 3 without a UUID") {
  auto r = load("system_profiler_tb_m5max_mbp_A_rdma_disabled_anonymized.json");
  auto* p2 = port(r, "2");
  REQUIRE(p2);
  REQUIRE(p2->peers.size() == 1);
  auto* p3 = port(r, "3");
  REQUIRE(p3);
  CHECK(p3->peers.empty());
  CHECK(p3->connected);
}

TEST_CASE("MacBooks A and B each list the other's port as the peer") {
  auto a = load("system_profiler_tb_m5max_mbp_A_rdma_disabled_anonymized.json");
  auto b = load("system_profiler_tb_m5max_mbp_B_rdma_enabled_anonymized.json");
  auto* bp = port(b, "2");
  REQUIRE(bp);
  REQUIRE(bp->peers.size() == 1);
  CHECK(bp->peers[0].domain_uuid == port(a, "2")->domain_uuid);
  CHECK(port(a, "2")->peers[0].domain_uuid == bp->domain_uuid);
  CHECK(port(b, "3")->linked_gbps() == 40);
}

TEST_CASE("a peer behind a dock is found one level deeper") {
  std::string bus = read_data("probe/system_profiler_tb_item_peer_behind_hub_exo_excerpt.json");
  auto r = parse_system_profiler_thunderbolt("{\"SPThunderboltDataType\": [" + bus + "]}");
  REQUIRE(r.ports.size() == 1);
  REQUIRE(r.ports[0].peers.size() == 1);
  CHECK(r.ports[0].peers[0].domain_uuid == "F74D8F9B-DCDF-40D4-A428-3A3674BCB3F4");
}

TEST_CASE("buses without domain_uuid_key are skipped") {
  auto r = load("system_profiler_tb_mbp_no_peers_macos26.6.1_trimmed_sirsi.json");
  CHECK(r.error.empty());
  CHECK(r.ports.empty());
}

TEST_CASE("the text format and garbage give an error, not a crash") {
  auto r = load("system_profiler_tb_text_m4pro_macmini_to_m4max_studio_exo1390_partial.txt");
  CHECK(r.error == "system_profiler printed invalid JSON");
  CHECK(parse_system_profiler_thunderbolt("[1,2]").error ==
        "system_profiler JSON has no SPThunderboltDataType list");
  auto odd = parse_system_profiler_thunderbolt(
      R"({"SPThunderboltDataType":[1,{"domain_uuid_key":7},{"domain_uuid_key":"U","receptacle_1_tag":3,"_items":{"x":1}}]})");
  CHECK(odd.error.empty());
  REQUIRE(odd.ports.size() == 1);
  CHECK(odd.ports[0].receptacle.empty());
}

TEST_CASE("Linux sysfs thunderbolt listing gives one device per line") {
  auto d = parse_linux_thunderbolt("0-0\tabc\tMy PC\tVendor\n0-1\tdef\tMac Studio\tApple Inc.\n\n");
  REQUIRE(d.size() == 2);
  CHECK(d[1].device_name == "Mac Studio");
  CHECK(d[1].unique_id == "def");
  CHECK(parse_linux_thunderbolt("only-entry\n")[0].vendor_name.empty());
}
