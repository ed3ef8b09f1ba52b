// Reference outputs (the fixtures' expected_*.hostfile.json, and files
// written by Python's json.dumps(obj, indent=4)) survive parse -> serialize
// byte for byte.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "test_data.hpp"

using namespace distkit::hostfile;

namespace {
const char* const kReferenceFiles[] = {
    "mesh4_m3ultra_rdma.auto.hostfile.json",
    "mesh4_m3ultra_rdma.jaccl.hostfile.json",
    "mesh4_m3ultra_rdma.ring.hostfile.json",
    "pair2_m3ultra_double_cable.auto.hostfile.json",
    "pair2_m3ultra_double_cable.jaccl.hostfile.json",
    "pair2_m3ultra_double_cable.ring.hostfile.json",
    "ring4_m3ultra_rdma.auto.hostfile.json",
    "ring4_m3ultra_rdma.ring.hostfile.json",
    "escapes_nested.python.hostfile.json",
    "quotes_ipv6.python.hostfile.json",
};
}  // namespace

TEST_CASE("every reference hostfile round-trips byte for byte") {
  for (const char* name : kReferenceFiles) {
    INFO(name);
    std::string text = distkit::test::read_data(std::string("hostfile/") + name);
    CHECK(serialize(parse(text, name)) == text);
  }
}

TEST_CASE("a model built in code serializes to the reference ring hostfile") {
  Hostfile hf;
  hf.backend = Backend::ring;
  hf.hosts = {{"studio-a", {"192.168.0.1", "192.168.0.5"}, {}},
              {"studio-b", {"192.168.0.2", "192.168.0.6"}, {}}};
  CHECK(serialize(hf) ==
        distkit::test::read_data("hostfile/pair2_m3ultra_double_cable.ring.hostfile.json"));
}

TEST_CASE("a jaccl-ring reference parses into null, names and the right shape") {
  Hostfile hf =
      parse(distkit::test::read_data("hostfile/ring4_m3ultra_rdma.auto.hostfile.json"), "f");
  REQUIRE(hf.backend == Backend::jaccl_ring);
  REQUIRE(hf.hosts.size() == 4);
  CHECK(hf.hosts[3].ssh == "studio-d");
  CHECK(hf.hosts[3].ips == std::vector<std::string>{"10.10.0.14"});
  CHECK(hf.hosts[3].rdma[0] == RdmaEntry{std::string("rdma_en4")});
  CHECK(hf.hosts[3].rdma[3] == RdmaEntry{std::monostate{}});
}

TEST_CASE("non-ASCII and nested device lists decode to UTF-8 and a list entry") {
  Hostfile hf =
      parse(distkit::test::read_data("hostfile/escapes_nested.python.hostfile.json"), "f");
  CHECK(hf.hosts[0].ssh ==
        "st\xC3\xBC"
        "dio");
  CHECK(hf.envs[2] == "C=\xF0\x9F\x98\x80");
  CHECK(hf.hosts[0].rdma[1] == RdmaEntry{std::vector<std::string>{"rdma_en3", "rdma_en4"}});
}
