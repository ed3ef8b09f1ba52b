// Shared helpers of the netsetup tests: the shared scenarios' topologies
// (tests/data/scenarios, copied from the reference tool's fixtures) and
// the reference's printed setup commands, parsed into per-host steps.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../topology/builders.hpp"  // scenario_hosts
#include "distkit/netsetup/from_topology.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::test {

inline topology::Topology scenario_topology(const std::string& scenario,
                                            const std::vector<std::string>& names) {
  return topology::build_topology(scenario_hosts(scenario, names));
}

// One link step of the reference's "Setup for HOST" blocks:
// `sudo ifconfig IF inet IP netmask M` then `sudo route change PEER -interface IF`.
struct RefStep {
  std::string iface, ip, netmask, peer;
  bool operator==(const RefStep&) const = default;
};

struct RefHost {
  bool bridge_down = false;
  std::vector<RefStep> steps;
};

inline std::map<std::string, RefHost> parse_reference_setup(const std::string& text) {
  std::map<std::string, RefHost> out;
  std::istringstream in(text);
  std::string line, host;
  while (std::getline(in, line)) {
    std::istringstream ws(line);
    std::vector<std::string> w;
    for (std::string x; ws >> x;) w.push_back(x);
    if (w.size() == 3 && w[0] == "Setup" && w[1] == "for")
      host = w[2];
    else if (w.size() == 4 && w[1] == "ifconfig" && w[2] == "bridge0" && w[3] == "down")
      out[host].bridge_down = true;
    else if (w.size() == 7 && w[1] == "ifconfig" && w[3] == "inet")
      out[host].steps.push_back({w[2], w[4], w[6], ""});
    else if (w.size() == 6 && w[1] == "route" && w[2] == "change" && !out[host].steps.empty())
      out[host].steps.back().peer = w[3] + "%" + w[5];
  }
  return out;
}

}  // namespace distkit::test
