// A rank's process group as the host sees it: is anything of it left, which
// processes are in it, and what they have done (for progress and stacks).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace distkit_agent {

// true when no process of group `pgid` is alive (zombies do not count:
// kill(-pgid, 0) still sees them until their parent reaps them). Linux reads
// /proc, macOS libproc (as sample_groups and group_members do).
bool group_gone(pid_t pgid);

// What the live processes of one group have done so far, summed.
struct GroupCounters {
  // Bytes read and written: Linux /proc/PID/io rchar + wchar (every read
  // and write, sockets, pipes and files); macOS proc_pid_rusage's disk
  // bytes (socket bytes only nettop(1) reports; not used). -1: unknown.
  long long io_bytes = -1;
  long long cpu_ms = 0;  // user + system CPU time
  int processes = 0;
};

// The counters of each of `pgids` (a group with no live process is left
// out), from one pass over the process table.
std::map<pid_t, GroupCounters> sample_groups(const std::vector<pid_t>& pgids);

// Up to `max` live processes of group `pgid`, the leader first, each with
// its command name (Linux comm, macOS p_comm).
struct GroupMember {
  pid_t pid = 0;
  std::string name;
};
std::vector<GroupMember> group_members(pid_t pgid, std::size_t max);

}  // namespace distkit_agent
