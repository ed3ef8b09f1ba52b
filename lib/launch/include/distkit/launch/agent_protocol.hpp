// The one number both ends of the launcher <-> host agent protocol check:
// distlaunch (lib/launch) and distkit-agent (apps/agent, libc only,
// which includes this header and distkit/version.hpp and nothing else of
// distkit). Raise kAgentProtocol with any change to a frame, an argument or
// a meaning; the preflight then refuses a host whose agent speaks another
// one, naming the host and the remedy, instead of guessing.
//
// The session, in order (frames: agent_frames.hpp; document:
// distkit-agent(1), PROTOCOL):
//   1. a POSIX sh locator (templates/launch_agent_start.sh) finds the
//      host's distkit-agent, prints its path and execs
//      `distkit-agent --protocol=N --host-agent`; an agent of another
//      protocol refuses that (exit 126) and is reported as such; with none
//      there it prints the host's system instead, for the copy;
//   2. the agent says hello: V <protocol> <distkit version>;
//   3. distlaunch's first frame, P, is its half of the hello and the
//      preflight request: the timing below and the checks; the agent
//      answers F with the checks' facts and only then takes ranks (N).
#pragma once

namespace distkit {

// 1: per-rank wrappers (each rank's own channel); 2: the host agent is
// the only host side and says hello with its protocol and distkit
// version; 3: the preflight is the agent's first request (P/F) and the
// timing travels in it; 4: progress samples (M) and stacks (W, L, B), and
// no stall limit in a start request. (Since session 20 the agent runs
// each rank itself: no frame changed, so the number did not.) 5: an empty
// O or R frame tells that the rank paused in the middle of a line.
inline constexpr int kAgentProtocol = 5;
inline constexpr const char kAgentProtocolFlag[] = "--protocol=5";

// Timing the two sides rely on, in seconds, all derived from the job's
// heartbeat limit (LaunchOptions::heartbeat_limit, H: 5 s; no flag sets
// it) and these. The launcher sends the three the agent uses in its P
// frame (heartbeat_limit=H,
// idle_limit=H+kAgentIdleMargin, first_rank_wait=kFirstRankWait); the
// agent checks their order (idle past a rank's own limits) and refuses
// a P that breaks it.
//   launcher: a heartbeat frame to every running rank each interval;
//   agent, for each rank: stops it after H + kHeartbeatMargin without a
//     frame for it, and gives up after H + kStartFrameMargin without its
//     start frame;
//   agent: ends (stopping its ranks) after the idle limit without a frame,
//     the first-rank wait more before its first rank, while distlaunch
//     waits for the other hosts' preflights: up to kPreflightTimeout each,
//     twice where it copies its own agent there (kAgentCopyTimeout); before
//     the P frame it waits kFirstRankWait at most. A launcher that dies
//     closes the channel, which ends the agent at once; the waits only
//     bound a cut link.
inline constexpr double kHeartbeatInterval = 1.0;
inline constexpr double kHeartbeatMargin = 0.5;  // a heartbeat may be in flight
inline constexpr double kStartFrameMargin = 1.0;
inline constexpr long kAgentIdleMargin = 2;
inline constexpr long kFirstRankWait = 60;
inline constexpr long kPreflightTimeout = 20;
inline constexpr long kAgentCopyTimeout = 15;
// The programs the agent runs for the preflight's checks (python, git,
// sw_vers) share this many seconds; one still running then is killed and
// its fact left out, so the answer comes before the launcher's timeout.
inline constexpr long kChecksTimeout = 12;
// A rank's own watchdog speaks first (it says which rank and why).
static_assert(kAgentIdleMargin > kHeartbeatMargin && kAgentIdleMargin > kStartFrameMargin);
static_assert(kHeartbeatMargin < kHeartbeatInterval);
// Every host's preflight (with a copy) ends before any agent gives up waiting.
static_assert(kFirstRankWait > 2 * kPreflightTimeout + kAgentCopyTimeout);
static_assert(kChecksTimeout < kPreflightTimeout);
// With P's sample=1, each rank's progress counters (M) every this many
// seconds; the launcher's stall limit is whole seconds, at least one.
inline constexpr double kSampleInterval = 1.0;
// A stack tool (gdb, eu-stack, sample, py-spy) still running this long
// after it started on one process is killed and its output so far sent;
// the dump of one rank's processes ends within kStackDumpLimit.
inline constexpr long kStackToolTimeout = 10;
inline constexpr long kStackDumpLimit = 20;
static_assert(kStackToolTimeout < kStackDumpLimit);

}  // namespace distkit
