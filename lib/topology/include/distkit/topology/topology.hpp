// The Thunderbolt topology of a set of hosts, built from their probes. Pure:
// no I/O, no SSH; testable from captured data alone.
//
// A link is a cable between port p of host a and port q of host b, found by
// matching the peer `domain_uuid_key` that a port lists (directly or behind
// a dock) with the other host's port UUID (SPEC §1). A link that only one
// side lists is kept and marked asymmetric (a dock can hide the peer on one
// side). Ports whose receptacle has no `Thunderbolt N` entry in networksetup
// are kept with an empty interface and reported, never a crash (SPEC §5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "distkit/probe/host_info.hpp"

namespace distkit::topology {

struct Port {
  std::string iface;       // "en3"; empty when networksetup has no entry
  std::string uuid;        // this port's domain_uuid_key
  std::string receptacle;  // "1".."6"
  int linked_gbps = 0;     // 0 when idle
  int max_gbps = 0;
  bool in_use = false;  // something (Mac, drive, dock) is attached
  std::vector<std::string> peer_uuids;
  // "Thunderbolt 3 (en4)" or "Thunderbolt 3" for messages.
  std::string label() const;
};

struct Host {
  std::string name;                               // the ssh name
  std::vector<Port> ports;                        // sorted by interface name, like MLX
  std::vector<std::string> unmapped_receptacles;  // no Thunderbolt N port
};

struct Link {
  int a = 0, pa = 0;  // host and port index on the side that listed it first
  int b = 0, pb = 0;
  bool seen_by_a = false, seen_by_b = false;
  int gbps = 0;  // linked speed (the lower of both ends when both known)
  bool symmetric() const { return seen_by_a && seen_by_b; }
  bool tb5() const { return gbps >= 80; }
  // The port index on `host`'s side (host must be a or b).
  int port_on(int host) const { return host == a ? pa : pb; }
};

// A peer UUID no probed host owns (a Mac that is not in the host list).
struct ExternalPeer {
  int host = 0, port = 0;
  std::string uuid;
};

struct Topology {
  std::vector<Host> hosts;
  std::vector<Link> links;  // in discovery order (host, then port order)
  std::vector<ExternalPeer> external;
  // count[i][j]: cables between hosts i and j (symmetric, 0 on the diagonal).
  std::vector<std::vector<int>> count;

  // Links between i and j in discovery order, the first `max` of them.
  std::vector<int> links_between(int i, int j, size_t max = SIZE_MAX) const;
  // Interface of host i on link l ("" when unmapped).
  const std::string& iface(int host, const Link& l) const;
  // Ports of host i with nothing attached (candidates for a new cable).
  std::vector<const Port*> free_ports(int host) const;
};

Topology build_topology(const std::vector<probe::HostInfo>& hosts);

}  // namespace distkit::topology
