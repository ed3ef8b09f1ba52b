// Small POSIX helpers, header-only and libc only, so every part of distkit
// uses the same ones: the tools, the libc-only host agent and the runtime
// library. Pipes are made close-on-exec with fcntl (macOS has no pipe2).
#pragma once

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <utility>

namespace distkit::posix {

// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

inline void set_cloexec(int fd) {
  ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}
inline void set_nonblock(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}
// Our own end of a pipe or socket: not inherited across exec, never
// blocking a poll loop.
inline void set_cloexec_nonblock(int fd) {
  set_cloexec(fd);
  set_nonblock(fd);
}

// A pipe whose ends are close-on-exec (and non-blocking with `nonblock`).
// Returns false on failure.
inline bool make_pipe(Fd& read_end, Fd& write_end, bool nonblock = false) {
  int p[2];
  if (::pipe(p) != 0) return false;
  for (int fd : p) nonblock ? set_cloexec_nonblock(fd) : set_cloexec(fd);
  read_end = Fd(p[0]);
  write_end = Fd(p[1]);
  return true;
}

// Reads and drops all a non-blocking `fd` holds: a self-pipe's wake-ups.
inline void drain_pipe(int fd) {
  char buf[256];
  while (::read(fd, buf, sizeof buf) > 0) {
  }
}

// Monotonic seconds, for timeouts.
inline double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace distkit::posix
