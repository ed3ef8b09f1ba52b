// distconfig --doctor/--watch, the pure half: the hops a backend will use,
// what templates/doctor_host.sh printed for each of them (read from its
// capture), and the verdicts with their evidence and fix: the route a hop
// takes (the link, the LAN, a VPN, the Thunderbolt Bridge, none), the
// interface state, a TCP connect's errno mapped to its causes (macOS Local
// Network privacy among them), other tools' network daemons and network
// locations, RDMA port state and IPv4-mapped GIDs, negotiated link speed.
// No I/O: tests feed it captures built from real output formats.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "distkit/probe/capture.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/topology/topology.hpp"

namespace distkit::configtool {

// One connection a rank will open: from `host` to `address` (of `peer`).
struct Hop {
  std::string host;
  std::string iface;  // the interface it should leave by ("" = any but a VPN)
  std::string peer;
  std::string address;
  std::string kind;          // "link" (a cable's two ends), "ring" (a hostfile hop), "coordinator"
  bool cabled = false;       // host and peer share a cable: a hop off Thunderbolt is a slow path
  std::string name() const;  // "h1:tb2 -> h2 (10.213.0.2)"
};

// What the host printed for one hop.
struct HopResult {
  std::string route_iface;     // "" when there is no route
  std::string route_evidence;  // the command and the line that says where it goes
  bool route_gateway = false;  // the route goes through a gateway (not on-link)
  std::string link = "up";     // up | down | missing (only when the hop names an interface)
  std::string link_evidence;
  bool connected = false;
  double rtt_ms = -1;
  double mbps = -1;        // the bandwidth sample, when one was sent
  std::string errno_name;  // "EHOSTUNREACH"
  int errno_number = 0;    // 65 on macOS, 113 on Linux
  std::string errno_text;  // "No route to host"
  long speed_mbps = -1;    // the interface's speed (Linux sysfs), -1 unknown
};

// What the host printed besides its hops.
struct HostResult {
  std::string host;
  bool macos = false;
  std::string error;                      // the script could not run
  std::vector<HopResult> hops;            // in the order of the hops given
  std::vector<std::string> daemon_files;  // other tools' daemons found
  std::optional<std::string> location;    // networksetup -getcurrentlocation
  // The location network setup ran in (the state file's "location" record)
  // and that file (set by the caller: the capture does not name it).
  std::optional<std::string> setup_location;
  std::string state_file;
  std::optional<std::string> ibv_devinfo_verbose;
  std::vector<std::string> not_listening;  // "10.213.0.1: Address already in use"
};

// Reads the capture of templates/doctor_host.sh for `hops` (this host's).
// `ports`: the host's `networksetup -listallhardwareports` from its probe,
// to map a "tb_json" section (system_profiler SPThunderboltDataType -json,
// the watch's macOS link speed) from receptacle N to the interface of
// "Thunderbolt N".
HostResult read_host_result(const std::string& host, const probe::Capture& c,
                            const std::vector<Hop>& hops,
                            const std::vector<probe::HardwarePort>& ports = {});

struct Finding {
  std::string host;
  std::string check;    // route | link | connect | daemon | location | rdma | speed
  std::string subject;  // the hop, the file, the port, the cable
  std::string verdict;  // ok | warn | fail
  std::string evidence;
  std::string cause = "";  // "" when ok
  std::string fix = "";
};

// The causes and fix of a failed connect, from the errno's name (the
// numbers differ: macOS 60/61/64/65, Linux 110/111/112/113; man page table).
// `route_ok`: the route leaves by the hop's interface; `same_subnet`: the
// peer is on-link (no gateway); `macos`: the connecting host runs macOS.
struct Cause {
  std::string cause, fix;
};
Cause connect_cause(const std::string& errno_name, const std::string& errno_text, bool route_ok,
                    bool same_subnet, bool macos, int port);

// Every finding of one host's hops (route, interface, connect).
std::vector<Finding> judge_hops(const std::vector<Hop>& hops, const HostResult& r,
                                const std::set<std::string>& tb_ifaces, int port);

// Other tools' daemons, and the network location: exo's is a warning, one
// other than the location setup recorded a failure.
std::vector<Finding> judge_host(const HostResult& r);

// RDMA ports of the link interfaces `ifaces`: PORT_ACTIVE and an
// IPv4-mapped GID, from `ibv_devinfo -v`.
std::vector<Finding> judge_rdma(const HostResult& r, const std::vector<std::string>& ifaces);

// Negotiated speed of each cable against what both Macs' ports can do.
std::vector<Finding> judge_speeds(const topology::Topology& t);

}  // namespace distkit::configtool
