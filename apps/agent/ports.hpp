// The preflight's port check: each port is bound once (SO_REUSEADDR, any
// address, as the rank will) and the ones already taken are printed as
// "busy=P1 P2 ...". It also proves that this host's agent speaks our
// protocol (templates/launch_preflight.sh).
#pragma once

namespace distkit_agent {

// argv: the ports (decimal, 1-65535). Returns the exit status: 0, or 2 with
// a message on stderr for an argument that is not a port.
int check_ports(int argc, char** argv);

}  // namespace distkit_agent
