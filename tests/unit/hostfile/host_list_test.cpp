// --hosts parsing and -n repetition, with mlx.launch's semantics (IP entries
// fill ips; each host repeated in place) and our stricter errors.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/host_list.hpp"
#include "error_text.hpp"

using namespace distkit::hostfile;
using distkit::hostfile::test::usage_error_of;

TEST_CASE("--hosts entries become hosts; IP entries also fill ips") {
  auto hosts = parse_host_list(" studio-a, 10.0.0.2 ,fe80::1%en0,admin@studio-b");
  REQUIRE(hosts.size() == 4);
  CHECK(hosts[0] == Host{"studio-a", {}, {}});
  CHECK(hosts[1] == Host{"10.0.0.2", {"10.0.0.2"}, {}});
  CHECK(hosts[2] == Host{"fe80::1%en0", {"fe80::1%en0"}, {}});
  CHECK(hosts[3] == Host{"admin@studio-b", {}, {}});
}

TEST_CASE("an empty --hosts list or entry is refused") {
  CHECK(usage_error_of([] { parse_host_list(" "); }) ==
        "--hosts: is empty; give host names or addresses separated by commas, e.g. "
        "--hosts studio-a,studio-b");
  CHECK(usage_error_of([] { parse_host_list("a,,b"); }) ==
        "--hosts: entry 2 of \"a,,b\" is empty; separate host names with single commas");
  CHECK(usage_error_of([] { parse_host_list("a,b,"); }) ==
        "--hosts: entry 3 of \"a,b,\" is empty; separate host names with single commas");
}

TEST_CASE("--hosts entries that are not one host name are refused") {
  CHECK(usage_error_of([] { parse_host_list("a,studio b"); }) ==
        "--hosts: \"studio b\" has white space or a control character inside; "
        "separate hosts with commas");
  CHECK(usage_error_of([] { parse_host_list("-oProxyCommand=x"); }) ==
        "--hosts: \"-oProxyCommand=x\" starts with '-'; give a host name, not an ssh option");
  CHECK(usage_error_of([] { parse_host_list("a,b\xff", "-H"); }) ==
        "-H: entry 2 is not valid UTF-8; give host names in UTF-8");
}

TEST_CASE("a host listed twice points at -n instead") {
  CHECK(usage_error_of([] { parse_host_list("a,b, a"); }) ==
        "--hosts: \"a\" is listed twice (entries 1 and 3); list each host once and use "
        "-n/--repeat-hosts for several ranks per host");
}

TEST_CASE("more than 4096 --hosts entries are refused") {
  std::string list = "h0";
  for (int i = 1; i < 4097; ++i) list += ",h" + std::to_string(i);
  CHECK(usage_error_of([&] { parse_host_list(list); }) ==
        "--hosts: has 4097 entries, more than the 4096 distkit accepts; split the cluster");
}

TEST_CASE("-n repeats each host in place, as mlx.launch does") {
  auto ranks = repeat_hosts(parse_host_list("a,10.0.0.2"), 2);
  REQUIRE(ranks.size() == 4);
  CHECK(ranks[0].ssh == "a");
  CHECK(ranks[1].ssh == "a");
  CHECK(ranks[2] == Host{"10.0.0.2", {"10.0.0.2"}, {}});
  CHECK(ranks[3] == ranks[2]);
  Hostfile hf;
  hf.hosts = ranks;
  CHECK_NOTHROW(validate(hf, "--hosts"));
}

TEST_CASE("-n must be a positive count that keeps the job bounded") {
  auto hosts = parse_host_list("a,b,c");
  CHECK(usage_error_of([&] { repeat_hosts(hosts, 0); }) ==
        "-n/--repeat-hosts: must be at least 1, got 0; give the number of ranks per host");
  CHECK(usage_error_of([&] { repeat_hosts(hosts, 2000); }) ==
        "-n/--repeat-hosts: 3 hosts x 2000 is 6000 ranks, more than the 4096 distkit accepts; "
        "ask for fewer ranks per host");
  CHECK(repeat_hosts(hosts, 1) == hosts);
}

TEST_CASE("-n above 1 is refused for hosts with an RDMA matrix") {
  std::vector<Host> hosts = {{"a", {}, {std::monostate{}, std::string("rdma_en3")}},
                             {"b", {}, {std::string("rdma_en3"), std::monostate{}}}};
  CHECK(usage_error_of([&] { repeat_hosts(hosts, 2); }) ==
        "-n/--repeat-hosts: cannot repeat hosts that have rdma entries (the RDMA matrix has one "
        "row and column per host); run one rank per host with RDMA hostfiles");
  CHECK(repeat_hosts(hosts, 1).size() == 2);
}

TEST_CASE("slots count the ranks of each host in order of first appearance") {
  std::vector<Host> ranks = {{"a", {}, {}}, {"a", {}, {}}, {"b", {}, {}}, {"a", {"10.0.0.1"}, {}}};
  CHECK(count_slots(ranks) == std::vector<HostSlots>{{"a", 3}, {"b", 1}});
  CHECK(count_slots({}).empty());
}
