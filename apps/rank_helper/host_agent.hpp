// The host agent: one distlaunch-rank per host that starts all of that
// host's ranks over a single channel (SSH, or a local process for this
// machine), as mpirun's orted does. Each rank gets its own wrapper (a
// forked child running run_rank: temp dir, process group, heartbeat
// watchdog, stdin frames).
//
//   distlaunch-rank --protocol=2 --host-agent IDLE_SECONDS
//
// Frames on the agent's stdin (from distlaunch), a line each, then raw bytes:
//   N <id> <n>  + n bytes  start rank <id>: NUL-terminated strings, first
//                          KEY=VALUE entries for its environment, then an
//                          empty one, then the wrapper's arguments from RANK on
//   I <id> <n>  + n bytes  bytes for the wrapper's stdin (its own frames)
//   C <id>                 close the wrapper's stdin after what is queued
//   A <id>                 close it now: the wrapper stops its rank
// Frames on the agent's stdout (to distlaunch):
//   O <id> <n>  + n bytes  the rank's (and its wrapper's) stdout
//   R <id> <n>  + n bytes  their stderr
//   X <id> <status>        the wrapper ended: its exit status, or s<N> when a
//                          signal N killed it; after all its O and R frames
//   V <protocol> <version> the hello, first: distkit/launch/agent_protocol.hpp's
//                          number and distkit's version
// The agent's own errors go to its stderr. It ends when its stdin closes
// (after closing every wrapper's stdin and waiting for them: the launcher is
// gone) or when it has had no wrapper and no input for IDLE_SECONDS (the
// link was cut; the wrappers' own watchdogs have stopped their ranks), 30 s
// more before its first rank (distlaunch waits for every host's preflight).
#pragma once

namespace distlaunch_rank {

// argv: the arguments after --host-agent.
int run_host_agent(int argc, char** argv);

// The wrapper for one rank (main.cpp), argv as distlaunch-rank's own.
int run_rank(int argc, char** argv);

}  // namespace distlaunch_rank
