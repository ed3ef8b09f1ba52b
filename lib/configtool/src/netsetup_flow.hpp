// distconfig's network setup (part 2, lib/netsetup): the cables (from the
// topology or --links), the address plan checked against every host's
// addresses and routes, printing/emitting the per-host commands, running
// them with --auto-setup, --verify, --teardown; reported per host.
#pragma once

#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/netsetup/scripts.hpp"
#include "distkit/topology/topology.hpp"
#include "gather.hpp"

namespace distkit::configtool {

// The host's OS for network setup (its kernel: a Linux test host answering
// Mac commands from shims is Linux; without uname, the probe's guess) and
// its state file (--state-file).
netsetup::HostTarget netsetup_target(const Options& o, const probe::HostInfo& info);

// Usage checks of the network-setup flags (before any probing).
void check_netsetup_flags(const Options& o);

// The topology from --links (hosts declared by hand) over the probed
// hosts; cables of hosts left out by --ignore-unreachable are dropped with
// a warning. Throws UsageError for a bad file or a host not in the list.
topology::Topology links_topology(const Options& o, Services& s,
                                  const std::vector<probe::HostInfo>& infos);

// The plan for `t`'s cables. With live hosts and a setup/verify action,
// each host's current addresses, routes and setup records are read first
// (one round trip, no root); otherwise the probe's addresses are used.
// Skipped ranges are noted on stderr.
netsetup::Plan plan_network(const Options& o, Services& s, Gathered& g,
                            const topology::Topology& t);

// Prints (and with --emit-scripts writes) the per-host setup, or runs it
// with --auto-setup and then verifies. Each host's outcome is reported on
// stderr; throws RemoteError (one line) when a host or a link failed.
int network_setup(const Options& o, Services& s, Gathered& g, const netsetup::Plan& plan);

// --verify alone: the data-plane check. Returns 0; throws RemoteError
// when a link failed (each failed hop is named on stderr first).
int network_verify(const Options& o, Services& s, Gathered& g, const netsetup::Plan& plan);

// --teardown: undo what setup recorded on each host. Returns 0; throws
// RemoteError when a host failed.
int network_teardown(const Options& o, Services& s, Gathered& g);

}  // namespace distkit::configtool
