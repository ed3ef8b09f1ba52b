// distconfig --check: a readiness report per host (OS version and build,
// hardware, Thunderbolt ports and links, RDMA state, bridge0, sudo,
// python/mlx) with mismatched macOS builds flagged and a verdict per
// backend. A table for people, JSON (--json) for scripts.
#pragma once

#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/topology/analysis.hpp"

namespace distkit::configtool {

// Prints the report on `out` and the problems behind its verdicts on
// `err` (with --json, every problem of the run in its "problems"); returns
// 0 when every host was probed and the requested backend (or, in automatic
// mode, any backend) can run, else 1.
int readiness_report(const Options& o, Services& s, const std::vector<probe::HostInfo>& infos,
                     const topology::Topology& t, const topology::Analysis& a);

}  // namespace distkit::configtool
