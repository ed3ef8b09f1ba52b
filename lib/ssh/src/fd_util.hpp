// Small POSIX file-descriptor helpers shared by the local executor and the
// system-ssh fallback: pipes marked close-on-exec and non-blocking with
// fcntl (pipe2 does not exist on macOS), and an owning fd wrapper.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <utility>

namespace distkit::ssh::detail {

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

// A pipe whose both ends are close-on-exec. Returns false on failure.
inline bool make_pipe(Fd& read_end, Fd& write_end) {
  int p[2];
  if (::pipe(p) != 0) return false;
  set_cloexec(p[0]);
  set_cloexec(p[1]);
  read_end = Fd(p[0]);
  write_end = Fd(p[1]);
  return true;
}

}  // namespace distkit::ssh::detail
