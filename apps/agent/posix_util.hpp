// distkit's POSIX helpers (distkit/util/posix.hpp) for the host agent's
// files, and a few of its own. libc only, header-only.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "distkit/util/posix.hpp"

namespace distkit_agent {

using distkit::posix::now_seconds;
using distkit::posix::write_all;

// Closes `fd` unless it is closed already (-1), and marks it closed.
inline void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// The first `max` bytes of the file at `path`, not through a symlink ("":
// it cannot be read).
inline std::string read_file(const std::string& path, std::size_t max) {
  std::string out;
  distkit::posix::Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) return out;
  char buf[4096];
  ssize_t n;
  while (out.size() < max && (n = read(fd.get(), buf, sizeof buf)) > 0)
    out.append(buf, std::min(static_cast<std::size_t>(n), max - out.size()));
  return out;
}

}  // namespace distkit_agent
