// distkit-agent: distkit's host side, the one program that starts,
// watches and stops every rank on a host. distlaunch runs it as the host
// agent (agent.hpp) on one channel per host, and the agent runs each rank
// itself (rank.hpp): private temp dir, own process group, secret file,
// stdin, heartbeat watchdog, TERM -> KILL, progress samples and stacks.
//   distkit-agent --protocol=4 --host-agent   (distlaunch's, nothing else)
// The protocol number is distkit/launch/agent_protocol.hpp's.
// Depends on libc only, so it starts in well under a millisecond.
#include <cstdio>
#include <cstring>

#include "agent.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/version.hpp"

int main(int argc, char** argv) {
  const char* kProtocol = distkit::kAgentProtocolFlag;
  if (argc == 3 && std::strcmp(argv[1], kProtocol) == 0 &&
      std::strcmp(argv[2], "--host-agent") == 0)
    return distkit_agent::run_agent();
  // Another protocol, or a rank's arguments by hand: ranks come only
  // through the agent (one implementation of the host side).
  std::fprintf(stderr,
               "distkit-agent: this is distkit %s's host agent (%s); distlaunch starts it, "
               "not a user%s\n",
               distkit::kVersion, kProtocol,
               argc >= 2 && std::strncmp(argv[1], "--protocol=", 11) == 0 &&
                       std::strcmp(argv[1], kProtocol) != 0
                   ? "; the launcher speaks another protocol: install the same distkit version "
                     "on every host"
                   : "");
  return 126;
}
