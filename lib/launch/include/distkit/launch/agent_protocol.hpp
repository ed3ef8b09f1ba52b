// The one number both ends of the launcher <-> host agent protocol check:
// distlaunch (lib/launch) and distkit-agent (apps/agent, libc only,
// which includes this header and distkit/version.hpp and nothing else of
// distkit). Raise kAgentProtocol with any change to a frame, an argument or
// a meaning; the preflight then refuses a host whose agent speaks another
// one, naming the host and the remedy, instead of guessing.
//
// The handshake, in order:
//   1. the preflight runs `distkit-agent --protocol=N --check-ports ...`:
//      an agent of another protocol exits 126 and is reported as refused;
//   2. it execs `distkit-agent --protocol=N --host-agent IDLE FIRST_WAIT`
//      (the launcher's timing, below), whose first frame is the hello
//      "V <protocol> <distkit version>"; the launcher hands the host its
//      ranks only after a hello of its own protocol.
#pragma once

namespace distkit {

// 1: per-rank wrappers; 2: the host agent is the only host side and says
// hello with its protocol and distkit version.
inline constexpr int kAgentProtocol = 2;
inline constexpr const char kAgentProtocolFlag[] = "--protocol=2";

// Timing the two sides rely on, in seconds, all derived from the job's
// heartbeat limit (--heartbeat-limit, H) and these; the launcher sends the
// agent's two on its command line, a wrapper gets H with its rank.
//   launcher: a heartbeat frame to every running rank each interval;
//   wrapper: stops its rank after H + kHeartbeatMargin without a frame, and
//     gives up after H + kStartFrameMargin without its start frame;
//   agent: ends (stopping its ranks) after IDLE = H + kAgentIdleMargin
//     without a frame, FIRST_WAIT = kFirstRankWait more before its first
//     rank, while distlaunch waits for the other hosts' preflights: up to
//     kPreflightTimeout each, twice where it copies its own agent there
//     (kAgentCopyTimeout). A launcher that dies closes the channel, which
//     ends the agent at once; the wait only bounds a cut link.
inline constexpr double kHeartbeatInterval = 1.0;
inline constexpr double kHeartbeatMargin = 0.5;  // a heartbeat may be in flight
inline constexpr double kStartFrameMargin = 1.0;
inline constexpr long kAgentIdleMargin = 2;
inline constexpr long kFirstRankWait = 60;
inline constexpr long kPreflightTimeout = 20;
inline constexpr long kAgentCopyTimeout = 15;
// A wrapper's own watchdog speaks first (it says which rank and why).
static_assert(kAgentIdleMargin > kHeartbeatMargin && kAgentIdleMargin > kStartFrameMargin);
static_assert(kHeartbeatMargin < kHeartbeatInterval);
// Every host's preflight (with a copy) ends before any agent gives up waiting.
static_assert(kFirstRankWait > 2 * kPreflightTimeout + kAgentCopyTimeout);

}  // namespace distkit
