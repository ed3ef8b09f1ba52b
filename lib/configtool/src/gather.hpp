// Step one of distconfig: which hosts, and what each of them says (probed
// over SSH/locally, or replayed from --from-probes). Every unreachable host
// is a problem of its own; --ignore-unreachable goes on without them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "distkit/configtool/distconfig.hpp"
#include "distkit/probe/host_info.hpp"

namespace distkit::configtool {

// The ssh names from --hostfile or --hosts. Throws UsageError.
std::vector<std::string> resolve_hosts(const Options& o);

// The reachable hosts, in host order: their pictures, their raw captures
// (network setup reads addresses with prefixes from them) and, when probed
// live, the executors (kept open for network setup; nullptr on replay).
struct Gathered {
  std::vector<probe::HostInfo> infos;
  std::vector<probe::Capture> captures;
  std::vector<std::shared_ptr<ssh::Executor>> executors;
};

// Probes (or replays) every host; each that failed is a problem (kind
// unreachable or probe-failed, a warning under --ignore-unreachable). Throws
// RemoteError when a host failed and neither --ignore-unreachable nor
// --check is given, or when none is left.
Gathered gather(const Options& o, Services& s, const std::vector<std::string>& hosts);

}  // namespace distkit::configtool
