// The host agent: one distkit-agent per host that starts all of that
// host's ranks over a single channel (SSH, or a local process for this
// machine), as mpirun's orted does. Each rank gets its own wrapper (a
// forked child running run_rank: temp dir, process group, heartbeat
// watchdog, stdin frames).
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
// (after closing every wrapper's stdin and waiting for them: the launcher is
// gone) or when it has had no input for the idle limit (the link was cut;
// the wrappers' own watchdogs have stopped their ranks), the first-rank
// wait more before its first rank (distlaunch waits for every host's
// preflight). Both come in P (agent_protocol.hpp).
#pragma once

namespace distkit_agent {

int run_agent();

// The wrapper for one rank (main.cpp): argv holds its start request's
// arguments, RANK first (distkit-agent(1), PROTOCOL); the heartbeat limit
// is the launcher's, from P; `status_fd` the write end of the pipe on
// which it tells the agent its rank's pid and temp dir.
int run_rank(int argc, char** argv, long heartbeat_limit, int status_fd);

}  // namespace distkit_agent
