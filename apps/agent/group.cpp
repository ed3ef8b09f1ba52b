#include "group.hpp"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "distkit/util/decimal.hpp"
#include "posix_util.hpp"

#ifdef __APPLE__
#include <libproc.h>
#include <mach/mach_time.h>
#include <sys/proc_info.h>
#include <sys/resource.h>
#endif

namespace distkit_agent {

namespace {

// One line of /proc/PID/stat: "pid (comm) S ppid pgrp ..."; comm may hold
// spaces and parentheses, so the fields are read after the last ')'.
struct ProcStat {
  pid_t pid = 0;
  char state = 0;
  long pgrp = 0;
  unsigned long long cpu_ticks = 0;  // utime + stime
  std::string comm;
};

bool parse_stat(const std::string& text, ProcStat& s) {
  std::size_t open_paren = text.find('('), close_paren = text.rfind(')');
  if (open_paren == std::string::npos || close_paren == std::string::npos ||
      close_paren < open_paren)
    return false;
  s.comm = text.substr(open_paren + 1, close_paren - open_paren - 1);
  unsigned long long utime = 0, stime = 0;
  // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  // NOLINTNEXTLINE(cert-err34-c): the count of fields converted is checked
  if (std::sscanf(text.c_str() + close_paren + 1,
                  " %c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &s.state, &s.pgrp,
                  &utime, &stime) != 4)
    return false;
  s.cpu_ticks = utime + stime;
  return true;
}

// Calls `each` for every process /proc lists; false when there is no /proc.
template <typename F>
bool for_each_proc(F each) {
  DIR* d = opendir("/proc");
  if (!d) return false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    ProcStat s;
    s.pid = distkit::parse_decimal<pid_t>(e->d_name).value_or(0);
    if (parse_stat(read_file(std::string("/proc/") + e->d_name + "/stat", 1023), s) && !each(s))
      break;
  }
  closedir(d);
  return true;
}

// rchar + wchar of /proc/PID/io; -1 when it cannot be read.
long long proc_io(pid_t pid) {
  std::string text = read_file("/proc/" + std::to_string(pid) + "/io", 1023);
  long long sum = 0;
  for (const char* key : {"rchar: ", "wchar: "}) {
    std::size_t at = text.find(key);
    if (at == std::string::npos) return -1;
    at += std::strlen(key);
    auto value = distkit::parse_decimal<long long>(
        std::string_view(text).substr(at, text.find('\n', at) - at));
    if (!value) return -1;
    sum += *value;
  }
  return sum;
}

#ifdef __APPLE__
// The live members of `pgid` (libproc; zombies left out).
std::vector<GroupMember> mac_members(pid_t pgid) {
  std::vector<pid_t> pids(256);
  int bytes = proc_listpids(PROC_PGRP_ONLY, static_cast<uint32_t>(pgid), pids.data(),
                            static_cast<int>(pids.size() * sizeof(pid_t)));
  pids.resize(bytes > 0 ? static_cast<std::size_t>(bytes) / sizeof(pid_t) : 0);
  std::vector<GroupMember> live;
  for (pid_t p : pids) {
    proc_bsdinfo bsd{};
    if (p > 0 && proc_pidinfo(p, PROC_PIDTBSDINFO, 0, &bsd, sizeof bsd) == sizeof bsd &&
        bsd.pbi_status != SZOMB)
      live.push_back({p, bsd.pbi_comm});
  }
  return live;
}
#endif

}  // namespace

bool group_gone(pid_t pgid) {
  if (kill(-pgid, 0) != 0) return true;
#ifdef __APPLE__
  return mac_members(pgid).empty();
#else
  bool alive = false;
  bool have_proc = for_each_proc([&](const ProcStat& s) {
    alive = s.pgrp == pgid && s.state != 'Z';
    return !alive;
  });
  return have_proc && !alive;  // without /proc, kill's answer: alive
#endif
}

std::map<pid_t, GroupCounters> sample_groups(const std::vector<pid_t>& pgids) {
  std::map<pid_t, GroupCounters> out;
#ifdef __APPLE__
  // rusage times are Mach absolute time units (ticks on Apple silicon).
  mach_timebase_info_data_t tb{};
  mach_timebase_info(&tb);
  for (pid_t g : pgids)
    for (const GroupMember& m : mac_members(g)) {
      rusage_info_v2 ri{};
      if (proc_pid_rusage(m.pid, RUSAGE_INFO_V2, reinterpret_cast<rusage_info_t*>(&ri)) != 0)
        continue;
      GroupCounters& c = out[g];
      unsigned long long ticks = ri.ri_user_time + ri.ri_system_time;
      c.cpu_ms += static_cast<long long>(ticks * tb.numer / tb.denom / 1000000ULL);
      c.io_bytes = std::max(c.io_bytes, 0LL) +
                   static_cast<long long>(ri.ri_diskio_bytesread + ri.ri_diskio_byteswritten);
      ++c.processes;
    }
#else
  static const long ticks_per_s = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
  for_each_proc([&](const ProcStat& s) {
    if (s.state == 'Z' || std::find(pgids.begin(), pgids.end(), s.pgrp) == pgids.end()) return true;
    GroupCounters& c = out[static_cast<pid_t>(s.pgrp)];
    c.cpu_ms +=
        static_cast<long long>(s.cpu_ticks * 1000 / static_cast<unsigned long long>(ticks_per_s));
    long long io = proc_io(s.pid);
    if (io >= 0) c.io_bytes = std::max(c.io_bytes, 0LL) + io;
    ++c.processes;
    return true;
  });
#endif
  return out;
}

std::vector<GroupMember> group_members(pid_t pgid, std::size_t max) {
#ifdef __APPLE__
  std::vector<GroupMember> out = mac_members(pgid);
#else
  std::vector<GroupMember> out;
  for_each_proc([&](const ProcStat& s) {
    if (s.pgrp == pgid && s.state != 'Z') out.push_back({s.pid, s.comm});
    return true;
  });
#endif
  // Not std::ranges: clang 14 cannot instantiate libstdc++ 12's subrange,
  // which the ranges form returns (CI's clang build).
  std::stable_partition(out.begin(), out.end(),
                        [&](const GroupMember& m) { return m.pid == pgid; });
  if (out.size() > max) out.resize(max);
  return out;
}

}  // namespace distkit_agent
