// The rank's process group: is any member other than a zombie left?
#pragma once

#include <sys/types.h>

namespace distkit_agent {

// true when no process of group `pgid` is alive (zombies do not count:
// kill(-pgid, 0) still sees them until their parent reaps them). Linux reads
// /proc; elsewhere (macOS) it asks ps.
bool group_gone(pid_t pgid);

}  // namespace distkit_agent
