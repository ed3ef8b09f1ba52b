#include "group.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace distkit_agent {

namespace {

// /proc/<pid>/stat: "pid (comm) S ppid pgrp ..."; comm may hold spaces and
// parentheses, so the fields are read after the last ')'.
int proc_says(pid_t pgid, bool& alive) {
  DIR* d = opendir("/proc");
  if (!d) return -1;
  alive = false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    std::string path = std::string("/proc/") + e->d_name + "/stat";
    int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) continue;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) continue;
    buf[n] = 0;
    char* rp = std::strrchr(buf, ')');
    if (!rp) continue;
    char state = 0;
    long ppid = 0, pgrp = 0;
    if (std::sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3) continue;
    if (pgrp == pgid && state != 'Z') {
      alive = true;
      break;
    }
  }
  closedir(d);
  return 0;
}

bool ps_says_alive(pid_t pgid) {
  FILE* p = popen("ps -A -o pgid= -o stat= 2>/dev/null", "r");
  if (!p) return false;
  bool alive = false;
  char line[256];
  while (std::fgets(line, sizeof line, p)) {
    long g = 0;
    char stat[32] = {0};
    if (std::sscanf(line, " %ld %31s", &g, stat) == 2 && g == pgid && stat[0] != 'Z') alive = true;
  }
  pclose(p);
  return alive;
}

}  // namespace

bool group_gone(pid_t pgid) {
  if (kill(-pgid, 0) != 0) return true;
  bool alive = false;
  if (proc_says(pgid, alive) == 0) return !alive;
  return !ps_says_alive(pgid);
}

}  // namespace distkit_agent
