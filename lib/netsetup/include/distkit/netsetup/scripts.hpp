// The per-host scripts and printed commands of network setup, rendered
// from templates/netsetup_* (every value shell-quoted):
//   setup     idempotent steps (bridge, link up, address, host route),
//             each recorded in the host's state file; optionally --persist
//   teardown  undoes the state file's records, newest first
//   verify    TCP reachability of each peer's link address on a port, and
//             the interface the route to it uses
//   state     addresses, routes and state records (before planning)
//   commands  what a user runs by hand, per host (no checks, no records)
// Pure: rendering only.
#pragma once

#include <string>
#include <vector>

#include "distkit/netsetup/plan.hpp"

namespace distkit::netsetup {

enum class Os { Linux, macOS };

// How the Thunderbolt Bridge (macOS bridge0) is handled: take the linked
// ports out of it (default), or bring it down as the reference does.
enum class BridgeMode { take_out, down };

struct HostTarget {
  std::string host;  // ssh name, as in the plan
  Os os = Os::Linux;
  std::string state_file;  // resolved (see state_file_for)
};

struct SetupOptions {
  BridgeMode bridge = BridgeMode::take_out;
  bool persist = false;
};

// The default state file per OS (root-owned directories, never /tmp):
// /var/db/distkit/netsetup.state (macOS), /var/lib/distkit/netsetup.state.
// `pattern` (from --state-file) wins when set; "%h" in it becomes the host.
std::string state_file_for(Os os, const std::string& host, const std::string& pattern);

std::string setup_script(const HostTarget& h, const Plan& plan, const SetupOptions& o);
std::string teardown_script(const HostTarget& h);
std::string verify_script(const HostTarget& h, const Plan& plan, int port);
std::string state_script(const HostTarget& h);
// The commands a user runs by hand on `h` ("sudo ifconfig ..."), one a line.
std::string setup_commands(const HostTarget& h, const Plan& plan, const SetupOptions& o);

// The command that runs a script given on stdin as root: directly when the
// user is root, else through `sudo -n` (never a password prompt).
std::string root_command();

}  // namespace distkit::netsetup
