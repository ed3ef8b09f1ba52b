// IPv4 addresses and networks as numbers: the address plan needs parsing,
// formatting and overlap tests, nothing more (no IPv6: the point-to-point
// links are IPv4, and RDMA over Thunderbolt derives its GID from IPv4).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace distkit::netsetup {

// "a.b.c.d" with four decimal octets 0..255 (no leading '+', no spaces,
// at most 3 digits each). nullopt otherwise.
std::optional<uint32_t> parse_ipv4(std::string_view text);
std::string format_ipv4(uint32_t address);

struct Cidr {
  uint32_t address = 0;  // as written (host bits may be set for an interface)
  int prefix = 32;       // 0..32

  uint32_t mask() const { return prefix == 0 ? 0 : ~uint32_t(0) << (32 - prefix); }
  uint32_t network() const { return address & mask(); }
  uint32_t last() const { return network() | ~mask(); }
  bool contains(uint32_t a) const { return (a & mask()) == network(); }
  bool overlaps(const Cidr& o) const { return network() <= o.last() && o.network() <= last(); }
  std::string str() const;  // "10.213.0.1/30"
};

// "a.b.c.d/n" or "a.b.c.d" (/32). nullopt when malformed.
std::optional<Cidr> parse_cidr(std::string_view text);

// A dotted netmask "255.255.255.252" or hex "0xfffffffc" (macOS ifconfig)
// to a prefix length; nullopt when not a contiguous mask.
std::optional<int> netmask_prefix(std::string_view mask);

// --subnet: a network "a.b.c.d/n" with n in 8..30 and no host bits set.
// Throws distkit::UsageError (subject `flag`) naming the problem.
Cidr parse_subnet(std::string_view text, std::string_view flag);

}  // namespace distkit::netsetup
