// The one number both ends of the launcher <-> host agent protocol check:
// distlaunch (lib/launch) and distlaunch-rank (apps/rank_helper, libc only,
// which includes this header and distkit/version.hpp and nothing else of
// distkit). Raise kAgentProtocol with any change to a frame, an argument or
// a meaning; the preflight then refuses a host whose agent speaks another
// one, naming the host and the remedy, instead of guessing.
//
// The handshake, in order:
//   1. the preflight runs `distlaunch-rank --protocol=N --check-ports ...`:
//      an agent of another protocol exits 126 and is reported as refused;
//   2. it execs `distlaunch-rank --protocol=N --host-agent IDLE`, whose
//      first frame is the hello "V <protocol> <distkit version>"; the
//      launcher hands the host its ranks only after a hello of its own
//      protocol.
#pragma once

namespace distkit {

// 1: per-rank wrappers; 2: the host agent is the only host side and says
// hello with its protocol and distkit version.
inline constexpr int kAgentProtocol = 2;
inline constexpr const char kAgentProtocolFlag[] = "--protocol=2";

}  // namespace distkit
