// Fuzzes the readers of a host's network state (lib/netsetup/src/
// net_state.cpp: `ip -o addr`, `ifconfig -a`, `ip -4 route`, `netstat -rn`
// and distconfig's state file, all remote output) on the same bytes.
// Checked besides "no crash, no sanitizer report": a line that does not
// parse is skipped, never thrown on; each reader yields at most one entry
// a line, every name from one line, every prefix in 0..32, and a parsed
// address's text parses back to the same address.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/netsetup/net_state.hpp"
#include "fuzz_check.hpp"

namespace ns = distkit::netsetup;
using distkit::fuzz::require;
using distkit::fuzz::require_at_most_lines;
using distkit::fuzz::require_field;

namespace {

void require_cidr(const ns::Cidr& c) {
  require(c.prefix >= 0 && c.prefix <= 32);
  auto again = ns::parse_cidr(c.str());
  require(again && again->address == c.address && again->prefix == c.prefix);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  ns::HostNet net;
  net.records = ns::parse_state_records(in);
  require_at_most_lines(net.records.size(), in);
  for (const auto& r : net.records) {
    require(!r.args.empty() && r.args.size() <= 2);
    for (const auto& a : r.args) require_field(a, in);
  }
  for (const auto& addresses : {ns::parse_ip_addr_cidrs(in), ns::parse_ifconfig_cidrs(in)}) {
    require_at_most_lines(addresses.size(), in);
    for (const auto& a : addresses) {
      require_field(a.iface, in);
      require_cidr(a.cidr);
      (void)net.ours(a);
    }
  }
  for (const auto& routes : {ns::parse_ip_routes(in), ns::parse_netstat_routes(in)}) {
    require_at_most_lines(routes.size(), in);
    for (const auto& r : routes) {
      require_field(r.iface, in);
      require_cidr(r.dest);
      (void)net.ours(r);
    }
  }
  return 0;
}
