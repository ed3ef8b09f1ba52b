// The host agent: one distkit-agent per host that starts all of that
// host's ranks over a single channel (SSH, or a local process for this
// machine), as mpirun's orted does. Each rank is a child of the agent,
// run by its loop (rank.hpp: temp dir, process group, heartbeat watchdog,
// stdin frames).
//
//   distkit-agent --protocol=4 --host-agent
//
// Its frames (P, N, I, C, A, W, L in; V, F, O, R, X, M, B out) are
// agent_frames.hpp's table, documented in distkit-agent(1), PROTOCOL. It
// says hello (V) first; the launcher's first frame (P) brings the timing
// and the preflight's checks, which it answers (F, checks.hpp) before any
// rank. With P's sample=1 it reports each rank's progress counters (M,
// group.hpp) every kSampleInterval; W and L ask for a rank's stacks (B,
// stacks.hpp), which a forked dumper collects while the loop goes on.
// The agent's own errors go to its stderr. It ends when its stdin closes
// (after stopping every rank and waiting for them: the launcher is gone) or
// when it has had no input for the idle limit (the link was cut; the
// ranks' own heartbeat watchdogs have stopped them), the first-rank
// wait more before its first rank (distlaunch waits for every host's
// preflight). Both come in P (agent_protocol.hpp).
#pragma once

namespace distkit_agent {

int run_agent();

}  // namespace distkit_agent
