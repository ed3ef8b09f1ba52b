// The semantic checks, each error text asserted exactly: names, addresses,
// the rdma matrix, env entries, repeated hosts, and per-backend requirements.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "error_text.hpp"

using namespace distkit::hostfile;
using distkit::hostfile::test::parse_error;
using distkit::hostfile::test::usage_error_of;

namespace {
// Three hosts whose rdma rows are given as JSON fragments.
std::string mesh3(const char* r0, const char* r1, const char* r2) {
  return std::string("[{\"ssh\": \"a\", \"rdma\": ") + r0 + "}, {\"ssh\": \"b\", \"rdma\": " + r1 +
         "}, {\"ssh\": \"c\", \"rdma\": " + r2 + "}]";
}
}  // namespace

TEST_CASE("an empty host list is refused") {
  CHECK(parse_error("[]") ==
        "hosts.json: hosts: is empty; list at least one host, e.g. [{\"ssh\": \"studio-a\"}]");
  CHECK(parse_error("{\"hosts\": []}") ==
        "hosts.json: hosts: is empty; list at least one host, e.g. [{\"ssh\": \"studio-a\"}]");
}

TEST_CASE("an empty or blank ssh name is refused") {
  const char* text =
      "hosts.json: hosts[1].ssh: is empty; give the host's SSH name or address, "
      "e.g. \"ssh\": \"studio-a\"";
  CHECK(parse_error("[{\"ssh\": \"a\"}, {\"ssh\": \"\"}]") == text);
  CHECK(parse_error("[{\"ssh\": \"a\"}, {\"ssh\": \"  \"}]") == text);
}

TEST_CASE("an ssh name that ssh would read as an option is refused") {
  CHECK(parse_error("[{\"ssh\": \"-oProxyCommand=sh\"}]") ==
        "hosts.json: hosts[0].ssh: \"-oProxyCommand=sh\" starts with '-'; "
        "give a host name, not an ssh option");
}

TEST_CASE("an ssh name with white space or control characters is refused") {
  CHECK(parse_error("[{\"ssh\": \"studio a\"}]") ==
        "hosts.json: hosts[0].ssh: \"studio a\" contains white space or a control character; "
        "give one host name or address");
  CHECK(parse_error("[{\"ssh\": \"a\\u0000b\"}]") ==
        "hosts.json: hosts[0].ssh: \"a\\u0000b\" contains white space or a control character; "
        "give one host name or address");
}

TEST_CASE("user@host and IP addresses are accepted as ssh names") {
  Hostfile hf = parse("[{\"ssh\": \"admin@studio-a.local\"}, {\"ssh\": \"10.0.0.2\"}]", "f");
  CHECK(hf.hosts[0].ssh == "admin@studio-a.local");
}

TEST_CASE("addresses must be IPv4 or IPv6") {
  CHECK(parse_error("[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\", \"10.0.0.300\"]}]") ==
        "hosts.json: hosts[0].ips[1]: \"10.0.0.300\" is not an IPv4 or IPv6 address; give an "
        "address such as \"192.168.0.2\" (host names belong in \"ssh\")");
  CHECK(parse_error("[{\"ssh\": \"a\", \"ips\": [\"studio-a.local\"]}]") ==
        "hosts.json: hosts[0].ips[0]: \"studio-a.local\" is not an IPv4 or IPv6 address; give an "
        "address such as \"192.168.0.2\" (host names belong in \"ssh\")");
}

TEST_CASE("is_ip_address follows inet_pton, with an optional IPv6 zone") {
  for (const char* ok : {"192.168.0.2", "0.0.0.0", "::1", "fe80::1", "fe80::1%en0",
                         "2001:db8::8:800:200c:417a", "::ffff:169.254.205.255"})
    CHECK(is_ip_address(ok));
  for (const char* bad : {"", "10.0.0", "10.0.0.1.2", "10.0.0.256", "01.2.3.4", " 10.0.0.1",
                          "10.0.0.1 ", "fe80::1%", "fe80::1%en 0", "10.0.0.1%en0", "::g", "host"})
    CHECK_FALSE(is_ip_address(bad));
  CHECK_FALSE(is_ip_address(std::string("10.0.0.1\0x", 10)));
}

TEST_CASE("an rdma row must have one entry per host") {
  CHECK(parse_error(mesh3("[null, \"rdma_en3\"]", "[]", "[]")) ==
        "hosts.json: hosts[0].rdma: has 2 entries for 3 hosts; give one entry per host "
        "(null for the host itself), or [] when not using RDMA");
}

TEST_CASE("a host's rdma entry for itself must be null") {
  CHECK(parse_error(mesh3("[null, \"rdma_en3\", \"rdma_en4\"]",
                          "[\"rdma_en3\", \"rdma_en5\", \"rdma_en4\"]", "[]")) ==
        "hosts.json: hosts[1].rdma[1]: is \"rdma_en5\" but a host's entry for itself must be "
        "null; write null at index 1");
  CHECK(parse_error(mesh3("[[\"rdma_en2\"], \"rdma_en3\", \"rdma_en4\"]", "[]", "[]")) ==
        "hosts.json: hosts[0].rdma[0]: is a list of devices but a host's entry for itself must "
        "be null; write null at index 0");
}

TEST_CASE("rdma device names and lists must not be empty") {
  CHECK(parse_error(mesh3("[null, \"\", null]", "[]", "[]")) ==
        "hosts.json: hosts[0].rdma[1]: device name is empty; write a name such as \"rdma_en3\", "
        "or null for no link");
  CHECK(parse_error(mesh3("[null, [], null]", "[]", "[]")) ==
        "hosts.json: hosts[0].rdma[1]: is an empty list; write null when there is no link");
  CHECK(parse_error(mesh3("[null, [\"rdma_en3\", \"\"], null]", "[]", "[]")) ==
        "hosts.json: hosts[0].rdma[1][1]: device name is empty; write a name such as "
        "\"rdma_en3\", or null for no link");
}

TEST_CASE("rows may be empty for hosts without RDMA, and lists name parallel cables") {
  Hostfile hf = parse(mesh3("[null, [\"rdma_en3\", \"rdma_en4\"], null]", "[]", "[]"), "f");
  CHECK(hf.hosts[1].rdma.empty());
}

TEST_CASE("env entries must be KEY=VALUE with a word-character key") {
  auto with_env = [](const char* env) {
    return parse_error(std::string("{\"envs\": [\"OK=1\", ") + env +
                       "], \"hosts\": [{\"ssh\": \"a\"}]}");
  };
  CHECK(with_env("\"FOO\"") ==
        "hosts.json: envs[1]: \"FOO\" is not KEY=VALUE; write e.g. \"MLX_RING_VERBOSE=1\"");
  CHECK(with_env("\"=1\"") == "hosts.json: envs[1]: \"=1\" has an empty key; write KEY=VALUE");
  CHECK(with_env("\"MY-VAR=1\"") ==
        "hosts.json: envs[1]: key \"MY-VAR\" may contain only letters, digits and '_'; "
        "rename the variable");
  CHECK(with_env("\"A=x\\u0000y\"") ==
        "hosts.json: envs[1]: value contains a NUL character; remove it");
  Hostfile hf = parse("{\"envs\": [\"A_1=x=y z\", \"B=\"], \"hosts\": [{\"ssh\": \"a\"}]}", "f");
  CHECK(hf.envs[0] == "A_1=x=y z");
}

TEST_CASE("a host listed again is one more rank on it, as in MLX") {
  Hostfile hf = parse(
      "[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"]}, {\"ssh\": \"b\"}, "
      "{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"]}]",
      "f");
  REQUIRE(hf.hosts.size() == 3);
  CHECK(hf.hosts[2] == hf.hosts[0]);
  Hostfile built;
  built.hosts = {{"a", {}, {}}, {"a", {}, {}}};
  CHECK_NOTHROW(validate(built, "--hosts"));
}

TEST_CASE("one host listed with two different ips lists is refused, naming both") {
  CHECK(parse_error("[{\"ssh\": \"a\", \"ips\": [\"10.0.0.1\"]}, {\"ssh\": \"b\"}, "
                    "{\"ssh\": \"a\", \"ips\": [\"10.0.0.2\"]}]") ==
        "hosts.json: hosts[2].ips: [\"10.0.0.2\"] differs from [\"10.0.0.1\"] of hosts[0], the "
        "same host \"a\"; give every entry of a host the same \"ips\" (each entry is one more "
        "rank there)");
  Hostfile hf;
  hf.hosts = {{"a", {"10.0.0.1"}, {}}, {"a", {}, {}}};
  CHECK(usage_error_of([&] { validate(hf, "x"); }) ==
        "x: hosts[1].ips: [] differs from [\"10.0.0.1\"] of hosts[0], the same host \"a\"; give "
        "every entry of a host the same \"ips\" (each entry is one more rank there)");
}

TEST_CASE("models built in code must hold UTF-8 text") {
  Hostfile hf;
  hf.hosts = {{"studio\xff", {}, {}}};
  CHECK(usage_error_of([&] { validate(hf, "x"); }) ==
        "x: hosts[0].ssh: is not valid UTF-8; save the file as UTF-8");
}

TEST_CASE("jaccl backends need an rdma row of one entry per host") {
  std::vector<Host> hosts = {{"a", {"10.0.0.1"}, {std::monostate{}, std::string("rdma_en3")}},
                             {"b", {"10.0.0.2"}, {}}};
  CHECK(usage_error_of([&] { require_jaccl_links(hosts, Backend::jaccl, "h"); }) ==
        "h: hosts[1].rdma: has 0 entries but backend \"jaccl\" needs one per host; regenerate "
        "the hostfile with distconfig, or use the ring backend");
  CHECK_NOTHROW(require_jaccl_links(hosts, Backend::ring, "h"));
  CHECK_NOTHROW(require_jaccl_links(hosts, Backend::mpi, "h"));
  hosts[1].rdma = {std::string("rdma_en3"), std::monostate{}};
  CHECK_NOTHROW(require_jaccl_links(hosts, Backend::jaccl, "h"));
}

namespace {
RdmaEntry dev(const char* d) {
  return std::string(d);
}
RdmaEntry devs(std::vector<std::string> d) {
  return d;
}
const RdmaEntry none{};

// a-b-c-d-a, one cable per link (the rows of a jaccl-ring hostfile).
std::vector<Host> ring4() {
  return {{"a", {}, {none, dev("rdma_en3"), none, dev("rdma_en4")}},
          {"b", {}, {dev("rdma_en3"), none, dev("rdma_en4"), none}},
          {"c", {}, {none, dev("rdma_en3"), none, dev("rdma_en4")}},
          {"d", {}, {dev("rdma_en4"), none, dev("rdma_en3"), none}}};
}
}  // namespace

TEST_CASE("jaccl-ring needs a device to both ring neighbours of every host (MLX #4284)") {
  CHECK_NOTHROW(require_jaccl_links(ring4(), Backend::jaccl_ring, "h"));
  CHECK_NOTHROW(require_jaccl_links(ring4(), Backend::ring, "h"));
  // The same rows in another order: c is no longer next to d.
  auto hosts = ring4();
  std::swap(hosts[1], hosts[2]);
  for (auto& h : hosts) std::swap(h.rdma[1], h.rdma[2]);
  CHECK(usage_error_of([&] { require_jaccl_links(hosts, Backend::jaccl_ring, "h"); }) ==
        "h: hosts[0].rdma[1]: is null but backend \"jaccl-ring\" links each host to its ring "
        "neighbours, a to c (hosts[1]) here; list the hosts in ring order (each cabled to the "
        "next, the last to the first), or regenerate the hostfile with distconfig");
  // A ring is not a mesh: a and c have no device between them.
  CHECK(usage_error_of([&] { require_jaccl_links(ring4(), Backend::jaccl, "h"); }) ==
        "h: hosts[0].rdma[2]: is null but backend \"jaccl\" (a full mesh) needs a device for "
        "every pair, a to c (hosts[2]) too; name the device a reaches it with, or regenerate the "
        "hostfile with distconfig (jaccl-ring or ring when a pair has no cable)");
}

TEST_CASE("jaccl-ring needs as many devices on every ring link") {
  auto hosts = ring4();
  hosts[2].rdma[3] = devs({"rdma_en4", "rdma_en5"});
  CHECK(usage_error_of([&] { require_jaccl_links(hosts, Backend::jaccl_ring, "h"); }) ==
        "h: hosts[2].rdma[3]: names 2 device(s) but hosts[0].rdma[1] names 1: backend "
        "\"jaccl-ring\" uses as many cables on every ring link; give every ring neighbour the "
        "same number of devices, or regenerate the hostfile with distconfig");
  for (auto& h : hosts)
    for (auto& e : h.rdma)
      if (!std::holds_alternative<std::monostate>(e)) e = devs({"rdma_en4", "rdma_en5"});
  CHECK_NOTHROW(require_jaccl_links(hosts, Backend::jaccl_ring, "h"));
}

TEST_CASE("two jaccl-ring hosts are each other's both neighbours; one host needs no link") {
  std::vector<Host> two = {{"a", {}, {none, dev("rdma_en3")}}, {"b", {}, {dev("rdma_en3"), none}}};
  CHECK_NOTHROW(require_jaccl_links(two, Backend::jaccl_ring, "h"));
  CHECK_NOTHROW(require_jaccl_links(two, Backend::jaccl, "h"));
  two[1].rdma[0] = none;
  CHECK(usage_error_of([&] {
          require_jaccl_links(two, Backend::jaccl_ring, "h");
        }).rfind("h: hosts[1].rdma[0]: is null", 0) == 0);
  std::vector<Host> one = {{"a", {}, {none}}};
  CHECK_NOTHROW(require_jaccl_links(one, Backend::jaccl, "h"));
}
