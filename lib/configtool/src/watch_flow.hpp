// distconfig --watch SECONDS: the doctor's bounded link checks (route
// interface, interface state, a TCP connect's time, a 1 MiB bandwidth
// sample, link speed) re-run on every host every SECONDS, one JSON line per
// hop and round appended to --history, and only the changes printed: a hop
// whose route moved to another interface, whose interface or connect went
// down (or came back), whose speed changed, or whose connect time went over
// 3x the first round's, and a host whose network location changed (on each
// of its hops' history lines). --fail-on-drift exits 1 at the first change;
// --count N stops after N rounds. The checks connect only to --test-port,
// which may not be one of the job's ports, and never touch RDMA (no
// `ibv_devinfo` in the loop: real ports have been wedged by tools that
// create RDMA resources over and over).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/netsetup/plan.hpp"
#include "distkit/topology/topology.hpp"
#include "doctor_checks.hpp"
#include "gather.hpp"

namespace distkit::configtool {

// What changed on a hop between two rounds ("" entries never); `base` is
// the hop's first good round (the RTT reference), `prev` the last round.
// Pure, for the tests.
std::vector<std::string> hop_changes(const Hop& hop, const std::optional<HopResult>& prev,
                                     const std::optional<HopResult>& base, const HopResult& cur);

// A host's network location against the last round's (`prev`; nullopt
// before the first answer, when the location setup recorded is the
// reference instead): the change, or "" when none. A location switch is
// drift: configd applies the other location's settings (exo#2279).
std::string location_change(const std::optional<std::string>& prev, const HostResult& cur);

int run_watch(const Options& o, Services& s, Gathered& g, const topology::Topology& t,
              const netsetup::Plan& plan);

}  // namespace distkit::configtool
