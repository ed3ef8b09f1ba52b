// libFuzzer entries for the parsers of what each Mac/Linux command prints,
// one binary per command so each gets its own seed corpus and coverage
// (probe.cmake builds this file once per FUZZ_<COMMAND> definition). Checked
// besides "no crash, no sanitizer report": the parsers document that they
// never throw (an escaping exception aborts the fuzzer, which counts as a
// finding), and the line-oriented ones return fields taken from one line,
// at most one item per line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/probe/hardware_ports.hpp"
#include "distkit/probe/netif.hpp"
#include "distkit/probe/rdma.hpp"
#include "distkit/probe/system.hpp"
#include "distkit/probe/thunderbolt.hpp"
#include "fuzz_check.hpp"

namespace pr = distkit::probe;
using distkit::fuzz::require;
using distkit::fuzz::require_at_most_lines;
using distkit::fuzz::require_field;

namespace {

[[maybe_unused]] void thunderbolt_fuzz(std::string_view in) {
  pr::TbReport r = pr::parse_system_profiler_thunderbolt(in);
  require(r.error.empty() || r.ports.empty());  // a report is usable or explained
  require(r.error.find('\n') == std::string::npos);
  for (const auto& d : pr::parse_linux_thunderbolt(in)) require_field(d.unique_id, in);
}

[[maybe_unused]] void hardware_ports_fuzz(std::string_view in) {
  auto ports = pr::parse_hardware_ports(in);
  require_at_most_lines(ports.size(), in);
  for (const auto& p : ports) {
    require_field(p.name, in);
    require_field(p.device, in);
    // A listed Thunderbolt port with a device is found by its receptacle.
    if (p.name.rfind("Thunderbolt ", 0) == 0 && !p.device.empty() && p.name.size() > 12)
      require(pr::thunderbolt_interface(ports, p.name.substr(12)).has_value());
  }
  require(!pr::thunderbolt_interface(ports, "").has_value());
}

[[maybe_unused]] void ibv_devices_fuzz(std::string_view in) {
  auto devs = pr::parse_ibv_devices(in);
  require_at_most_lines(devs.size(), in);
  for (const auto& d : devs) {
    require(!d.name.empty());
    require_field(d.name, in);
  }
}

[[maybe_unused]] void ibv_devinfo_fuzz(std::string_view in) {
  // ibv_devinfo reads "key: value" pairs anywhere in a line, so several
  // ports may come from one line; the Linux listing is one port per line.
  require_at_most_lines(pr::parse_linux_infiniband(in).size(), in);
  for (auto* parse : {&pr::parse_ibv_devinfo, &pr::parse_linux_infiniband}) {
    auto ports = parse(in);
    for (const auto& p : ports) {
      require_field(p.device, in);
      // The Linux listing's "4: ACTIVE" becomes "PORT_ACTIVE".
      require_field(p.state.rfind("PORT_", 0) == 0 ? p.state.substr(5) : p.state, in);
    }
  }
  // `ibv_devinfo -v`: every GID is a word of the input, and an IPv4-mapped
  // one's address a piece of it.
  for (const auto& p : pr::parse_ibv_devinfo_verbose(in)) {
    require_field(p.port.device, in);
    require_field(p.port.state, in);
    for (const auto& g : p.gids) require_field(g, in);
    require_field(p.ipv4_mapped(), in);
  }
}

[[maybe_unused]] void rdma_ctl_fuzz(std::string_view in) {
  (void)pr::parse_rdma_ctl_status(in);
}

[[maybe_unused]] void system_fuzz(std::string_view in) {
  for (auto* parse : {&pr::parse_sw_vers, &pr::parse_os_release}) {
    pr::OsVersion v = parse(in);
    require_field(v.name, in);
    require_field(v.version, in);
    require_field(v.build, in);
  }
  pr::Uname u = pr::parse_uname(in);
  require_field(u.kernel, in);
  std::string line = pr::parse_version_line(in);
  require_field(line, in);
  require(in.find(line) != std::string_view::npos);  // a piece of one line, unchanged
}

[[maybe_unused]] void netif_fuzz(std::string_view in) {
  for (auto* parse : {&pr::parse_ifconfig, &pr::parse_ip_addr}) {
    auto ifs = parse(in);
    require_at_most_lines(ifs.size(), in);
    for (const auto& i : ifs) {
      require_field(i.name, in);
      for (const auto& a : i.ipv4) require_field(a, in);
      for (const auto& m : i.members) require_field(m, in);
      require(pr::find_interface(ifs, i.name) != nullptr);
    }
  }
  if (auto r = pr::parse_route_get(in)) {
    require_field(r->interface, in);
    require_field(r->source, in);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  FUZZ_PARSER(in);
  return 0;
}
