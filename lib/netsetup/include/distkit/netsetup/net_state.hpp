// What a host's network looks like now: IPv4 addresses with their prefix,
// the IPv4 routing table, and the records of what an earlier distconfig
// setup changed (its state file). Parsers are pure functions of the
// commands' text: `ip -o addr show` / `ip -4 route show` (Linux),
// `ifconfig -a` / `netstat -rn -f inet` (macOS; also net-tools ifconfig).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "distkit/netsetup/ipv4.hpp"

namespace distkit::netsetup {

struct AddressEntry {
  std::string iface;
  Cidr cidr;  // the address and its prefix (10.77.1.2/24)
};

struct RouteEntry {
  std::string iface;  // "" when not printed
  Cidr dest;          // default route: 0.0.0.0/0
};

// One line of the state file a setup leaves on a host, in the order done:
//   addr IF A.B.C.D/P | route IF PEER | bridgeout BRIDGE IF |
//   bridgedown BRIDGE | linkup IF | persist PATH |
//   location NAME (macOS: the network location setup ran in; NAME is the
//   rest of the line, spaces included; at most one such record)
struct StateRecord {
  std::string kind;
  std::vector<std::string> args;
};

struct HostNet {
  std::vector<AddressEntry> addresses;
  std::vector<RouteEntry> routes;
  std::vector<StateRecord> records;  // what distconfig set up earlier
  // True when the address is recorded as added by distconfig.
  bool ours(const AddressEntry& a) const;
  // True when a route to inside `net` is on an interface distconfig
  // addressed (its connected or host routes).
  bool ours(const RouteEntry& r) const;
};

std::vector<AddressEntry> parse_ip_addr_cidrs(std::string_view text);   // ip -o addr show
std::vector<AddressEntry> parse_ifconfig_cidrs(std::string_view text);  // ifconfig -a
std::vector<RouteEntry> parse_ip_routes(std::string_view text);         // ip -4 route show
std::vector<RouteEntry> parse_netstat_routes(std::string_view text);    // netstat -rn -f inet
std::vector<StateRecord> parse_state_records(std::string_view text);    // unknown lines skipped

}  // namespace distkit::netsetup
