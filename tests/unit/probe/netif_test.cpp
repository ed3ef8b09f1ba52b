// ifconfig, ip addr and route parsers: addresses, bridge membership, and
// which interface routes to the launcher.
#include "distkit/probe/netif.hpp"

#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::probe;
using distkit::test::read_data;
using V = std::vector<std::string>;

TEST_CASE("a Thunderbolt interface's self-assigned IPv4 address") {
  auto ifs = parse_ifconfig(read_data("probe/ifconfig_en2_tb_interface_apple_tn3205.txt"));
  REQUIRE(ifs.size() == 1);
  CHECK(ifs[0].name == "en2");
  CHECK(ifs[0].ipv4 == V{"169.254.205.255"});
  CHECK(ifs[0].status == "active");
}

TEST_CASE("bridge0 members and state from each real capture") {
  auto a = parse_ifconfig(read_data("probe/ifconfig_bridge0_3members_apple_tn3205_elided.txt"));
  REQUIRE(a.size() == 1);
  CHECK(a[0].members == V{"en2", "en3", "en4"});
  CHECK(a[0].status == "active");
  auto b = parse_ifconfig(read_data("probe/ifconfig_bridge0_3members_inactive_walljm_excerpt.txt"));
  CHECK(b[0].members == V{"en1", "en2", "en3"});
  CHECK(b[0].status == "inactive");
  auto c =
      parse_ifconfig(read_data("probe/ifconfig_bridge0_macmini_3members_ip_mtu9000_mlx1903.txt"));
  CHECK(c[0].members == V{"en2", "en3", "en4"});
  CHECK(c[0].ipv4 == V{"10.25.0.1"});
}

TEST_CASE("Linux net-tools ifconfig and ip -o addr give the same addresses") {
  std::string nt =
      "eth0: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1400\n"
      "        inet 192.0.2.2  netmask 255.255.255.0  broadcast 192.0.2.255\n"
      "lo: flags=73<UP,LOOPBACK,RUNNING>  mtu 65536\n"
      "        inet 127.0.0.1  netmask 255.0.0.0\n";
  auto a = parse_ifconfig(nt);
  REQUIRE(a.size() == 2);
  CHECK(find_interface(a, "eth0")->ipv4 == V{"192.0.2.2"});
  std::string ip =
      "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever\n"
      "4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\  x\n"
      "4: eth0    inet6 fe80::fc:ff:fe00:1/64 scope link \\ x\n"
      "7: veth1@if6    inet 10.9.0.2/24 scope global veth1\n";
  auto b = parse_ip_addr(ip);
  REQUIRE(b.size() == 3);
  CHECK(find_interface(b, "eth0")->ipv4 == V{"192.0.2.2"});
  CHECK(find_interface(b, "veth1")->ipv4 == V{"10.9.0.2"});
  CHECK(find_interface(b, "nope") == nullptr);
}

TEST_CASE("route to the launcher: macOS route get and Linux ip route get") {
  auto mac = parse_route_get(
      "   route to: 10.0.0.1\ndestination: default\n       mask: default\n"
      "    gateway: 10.0.0.1\n  interface: en7\n      flags: <UP,GATEWAY,DONE>\n");
  REQUIRE(mac);
  CHECK(mac->interface == "en7");
  CHECK(mac->source.empty());
  auto lin = parse_route_get("local 127.0.0.1 dev lo src 127.0.0.1 uid 0 \n    cache <local> \n");
  REQUIRE(lin);
  CHECK(lin->interface == "lo");
  CHECK(lin->source == "127.0.0.1");
  CHECK_FALSE(parse_route_get("route: writing to routing socket: not in table\n"));
}
