#include "temp_dir.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "distkit/util/decimal.hpp"
#include "posix_util.hpp"

namespace distkit_agent {

std::string owner_name(const std::string& host) {
  char ns[256];
  ssize_t n = readlink("/proc/self/ns/pid", ns, sizeof ns - 1);
  if (n <= 0) return host;
  return host + "/" + std::string(ns, static_cast<std::size_t>(n));
}

void remove_tree(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) return;
  if (!S_ISDIR(st.st_mode)) {
    unlink(path.c_str());
    return;
  }
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
      remove_tree(path + "/" + e->d_name);
    }
    closedir(d);
  }
  rmdir(path.c_str());
}

void remove_stale_dirs(const std::string& tmp, const std::string& owner) {
  DIR* d = opendir(tmp.c_str());
  if (!d) return;
  while (dirent* e = readdir(d)) {
    if (std::strncmp(e->d_name, "distlaunch.", 11) != 0) continue;
    std::string dir = tmp + "/" + e->d_name;
    std::string text = read_file(dir + "/owner", 512);
    // "<owner> <pid>\n" (9 digits fit a pid_t)
    auto sp = text.rfind(' ');
    if (sp == std::string::npos || text.substr(0, sp) != owner) continue;
    auto pid = distkit::parse_digits(text.substr(sp + 1, text.find_last_not_of("\r\n") - sp), 9);
    if (pid && *pid > 0 && kill(*pid, 0) != 0 && errno == ESRCH) remove_tree(dir);
  }
  closedir(d);
}

bool write_file(const std::string& path, const std::string& content, int mode) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode);
  if (fd < 0) return false;
  const bool written = write_all(fd, content);
  return close(fd) == 0 && written;
}

std::string make_temp_dir(const std::string& tmp, const std::string& owner) {
  std::string templ = tmp + "/distlaunch.XXXXXX";
  if (!mkdtemp(templ.data())) return "";
  if (!write_file(templ + "/owner", owner + " " + std::to_string(getpid()) + "\n", 0644)) {
    rmdir(templ.c_str());
    return "";
  }
  return templ;
}

}  // namespace distkit_agent
