// The host agent: one distkit-agent per host that starts all of that
// host's ranks over a single channel (SSH, or a local process for this
// machine), as mpirun's orted does. Each rank gets its own wrapper (a
// forked child running run_rank: temp dir, process group, heartbeat
// watchdog, stdin frames).
//
//   distkit-agent --protocol=2 --host-agent IDLE FIRST_WAIT   (seconds)
//
// Its frames (N, I, C, A in; V, O, R, X out) are agent_frames.hpp's table,
// documented in distkit-agent(1), PROTOCOL; the hello V comes first.
// The agent's own errors go to its stderr. It ends when its stdin closes
// (after closing every wrapper's stdin and waiting for them: the launcher is
// gone) or when it has had no wrapper and no input for IDLE seconds (the
// link was cut; the wrappers' own watchdogs have stopped their ranks),
// FIRST_WAIT more before its first rank (distlaunch waits for every host's
// preflight). Both come from the launcher (agent_protocol.hpp).
#pragma once

namespace distkit_agent {

// argv: the arguments after --host-agent.
int run_agent(int argc, char** argv);

// The wrapper for one rank (main.cpp): argv holds its start request's
// arguments, RANK first (distkit-agent(1), PROTOCOL).
int run_rank(int argc, char** argv);

}  // namespace distkit_agent
