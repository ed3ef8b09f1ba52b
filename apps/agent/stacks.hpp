// Stack dumps of a rank's processes, with what the host has: py-spy for a
// Python process where installed; on Linux eu-stack (elfutils), else gdb;
// on macOS the stock `sample`. Bounded in time (kStackToolTimeout per
// process, `deadline` for all); a host without any tool says so in one line.
#pragma once

#include <sys/types.h>

#include <string>

namespace distkit_agent {

// The stacks of group `pgid`'s processes (up to four, the leader first),
// as text for the launcher. `final`: the job is stopped next, so a Python
// process without py-spy is sent SIGABRT after its native stack, for
// faulthandler (PYTHONFAULTHANDLER, which distlaunch sets) to print its
// Python frames on the rank's stderr.
std::string dump_stacks(pid_t pgid, bool final, double deadline);

}  // namespace distkit_agent
