// Parsing what a host has now: addresses with prefixes and routes, from
// Linux `ip` and macOS `ifconfig`/`netstat` text, and the state records.
#include "distkit/netsetup/net_state.hpp"
#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::netsetup;
using distkit::test::read_data;

TEST_CASE("ip -o addr gives every IPv4 address with its prefix") {
  auto a = parse_ip_addr_cidrs(
      "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
      "2: eth0@if7    inet 10.77.3.2/24 scope global eth0\\       valid_lft forever\n"
      "2: eth0@if7    inet6 fe80::1/64 scope link \\       valid_lft forever\n");
  REQUIRE(a.size() == 2);
  CHECK(a[1].iface == "eth0");
  CHECK(a[1].cidr.str() == "10.77.3.2/24");
}

TEST_CASE("macOS ifconfig netmasks in hex become prefixes (real capture)") {
  auto a = parse_ifconfig_cidrs(
      read_data("netsetup/ifconfig_bridge0_macmini_3members_ip_mtu9000_mlx1903.txt"));
  REQUIRE(a.size() == 1);
  CHECK(a[0].iface == "bridge0");
  CHECK(a[0].cidr.prefix == 24);
  auto b = parse_ifconfig_cidrs(
      "en3: flags=8863<UP> mtu 1500\n\tinet 10.213.0.1 netmask 0xfffffffc broadcast 10.213.0.3\n"
      "eth0: flags=4163<UP>  mtu 1500\n        inet 10.77.1.2  netmask 255.255.255.0  broadcast "
      "10.77.1.255\n");
  REQUIRE(b.size() == 2);
  CHECK(b[0].cidr.str() == "10.213.0.1/30");
  CHECK(b[1].cidr.str() == "10.77.1.2/24");
}

TEST_CASE("ip route and macOS netstat routes, with abbreviated networks") {
  auto r = parse_ip_routes(
      "default via 10.77.1.1 dev eth0\n10.77.1.0/24 dev eth0 proto kernel scope link src "
      "10.77.1.2\n"
      "10.213.0.2 dev eth1 scope link\nblackhole 10.9.0.0/16\n");
  REQUIRE(r.size() == 4);
  CHECK(r[0].dest.prefix == 0);
  CHECK(r[1].dest.str() == "10.77.1.0/24");
  CHECK(r[2].dest.str() == "10.213.0.2/32");
  CHECK(r[2].iface == "eth1");
  CHECK(r[3].dest.str() == "10.9.0.0/16");
  auto m = parse_netstat_routes(
      "Routing tables\n\nInternet:\nDestination        Gateway            Flags               "
      "Netif Expire\n"
      "default            192.168.1.1        UGScg                 en0\n127                "
      "127.0.0.1          UCS                   lo0\n"
      "169.254            link#6             UCS                   en0      !\n192.168.1          "
      "link#6             UCS                   en0      !\n"
      "10.213.0.0/30      link#14            UC                    en3      !\n10.213.0.2         "
      "link#14            UHS                   en3\n");
  REQUIRE(m.size() == 6);
  CHECK(m[1].dest.str() == "127.0.0.0/8");
  CHECK(m[2].dest.str() == "169.254.0.0/16");
  CHECK(m[3].dest.str() == "192.168.1.0/24");
  CHECK(m[4].dest.str() == "10.213.0.0/30");
  CHECK(m[5].dest.str() == "10.213.0.2/32");
  CHECK(m[5].iface == "en3");
}

TEST_CASE("state records: known kinds kept, anything else skipped") {
  auto r = parse_state_records(
      "addr eth1 10.213.0.1/30\nroute eth1 10.213.0.2\nbogus x\naddr eth1\nbridgedown bridge0\n");
  REQUIRE(r.size() == 3);
  CHECK(r[0].kind == "addr");
  CHECK(r[2].args == std::vector<std::string>{"bridge0"});
  HostNet h;
  h.records = r;
  CHECK(h.ours(AddressEntry{"eth1", *parse_cidr("10.213.0.1/30")}));
  CHECK_FALSE(h.ours(AddressEntry{"eth2", *parse_cidr("10.213.0.1/30")}));
  CHECK(h.ours(RouteEntry{"eth1", *parse_cidr("10.213.0.0/30")}));
  CHECK(h.ours(RouteEntry{"eth1", *parse_cidr("10.213.0.2/32")}));
  CHECK_FALSE(h.ours(RouteEntry{"eth1", *parse_cidr("10.213.0.0/16")}));
}

TEST_CASE("state records: a location's name is the rest of the line, spaces included") {
  auto r = parse_state_records(
      "addr en3 10.213.0.1/30\nlocation Lab  Thunderbolt 2\nlocation \nlocation\n");
  REQUIRE(r.size() == 2);
  CHECK(r[1].kind == "location");
  CHECK(r[1].args == std::vector<std::string>{"Lab  Thunderbolt 2"});
}
