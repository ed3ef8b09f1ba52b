// Step one of distconfig: which hosts, and what each of them says (probed
// over SSH/locally, or replayed from --from-probes). Every unreachable host
// is reported in one block; --ignore-unreachable goes on without them.
#pragma once

#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/probe/host_info.hpp"

namespace distkit::configtool {

// The ssh names from --hostfile or --hosts. Throws UsageError.
std::vector<std::string> resolve_hosts(const Options& o);

// Probes (or replays) every host; returns the reachable hosts' pictures in
// host order. Throws RemoteError when a host failed and
// --ignore-unreachable is off, UsageError when none is left.
std::vector<probe::HostInfo> gather(const Options& o, Services& s,
                                    const std::vector<std::string>& hosts);

}  // namespace distkit::configtool
