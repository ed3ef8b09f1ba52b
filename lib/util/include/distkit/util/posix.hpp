// Small POSIX helpers, header-only and libc only, so every part of distkit
// uses the same ones: the tools, the libc-only host agent and the runtime
// library. Pipes are made close-on-exec with fcntl (macOS has no pipe2).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ;  // macOS declares it nowhere

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
  int release() { return std::exchange(fd_, -1); }
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

// Writes all of `data` to a blocking `fd`, again after EINTR. False when a
// write fails (errno says why) or writes nothing (errno is not set then).
inline bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Raises this process's soft limit on open files to `want` when it is
// lower, as far as the hard limit allows (10240, OPEN_MAX, when that is
// unlimited: macOS refuses more). macOS shells start at 256. Returns the
// soft limit in force afterwards (0 when it cannot be read).
inline rlim_t raise_open_files(rlim_t want) {
  // Ranks as threads of one process raise it together: one at a time, so
  // that none lowers what another raised.
  static std::mutex one_at_a_time;
  std::lock_guard lock(one_at_a_time);
  rlimit now{};
  if (getrlimit(RLIMIT_NOFILE, &now) != 0) return 0;
  const rlim_t cap = now.rlim_max == RLIM_INFINITY ? 10240 : now.rlim_max;
  if (now.rlim_cur == RLIM_INFINITY || now.rlim_cur >= want || now.rlim_cur >= cap)
    return now.rlim_cur;
  rlimit raised = now;
  raised.rlim_cur = want < cap ? want : cap;
  return setrlimit(RLIMIT_NOFILE, &raised) == 0 ? raised.rlim_cur : now.rlim_cur;
}

// Makes room for `sockets` descriptors on top of what the program has open
// (256 of room asked for, 32 enough), raising the soft limit. Returns ""
// or, when the hard limit is too low, the one-line refusal for `who`
// ending in `remedy`: the caller throws it as its own error.
inline std::string reserve_sockets(rlim_t sockets, std::string_view who, std::string_view remedy) {
  const rlim_t limit = raise_open_files(sockets + 256);
  if (limit == 0 || limit >= sockets + 32) return "";
  return std::string(who) + ": needs " + std::to_string(sockets) +
         " sockets, and the open-file limit is " + std::to_string(limit) +
         "; raise it (ulimit -n " + std::to_string(sockets + 256) + "), or " + std::string(remedy);
}

// Monotonic seconds, for timeouts.
inline double now_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Starts argv (argv[0] searched on PATH, as execvp searches it) in a
// process group of its own, nothing blocked and the usual signals at their
// defaults: how ranks and local commands start. `fds` become the child's
// 0, 1 and 2 (-1 keeps ours); every other descriptor of ours must be
// close-on-exec. `envp` is its environment (PATH is still searched as
// ours); `cwd`, when given, its working directory, which must exist (the
// spawn fails otherwise); `nofile`, when given, its open-file limit (ours
// for the spawn: the file actions are checked against ours before; the
// limit is the whole process's meanwhile, so only a single-threaded
// caller, the host agent, passes it).
// Returns the pid, or -1 with the errno value in `err`
// (posix_spawn also reports a failed exec; EINVAL for an empty argv).
// posix_spawn rather than fork: no copy of the parent's page tables, which
// made starting 32 ranks from the agent cost ~9 ms of CPU each. A file
// without #! is run by /bin/sh, as execvp does and glibc's posix_spawnp
// does not.
inline pid_t spawn_in_new_group(const std::vector<std::string>& argv, const int (&fds)[3], int& err,
                                char* const* envp = environ, const char* cwd = nullptr,
                                const rlimit* nofile = nullptr) {
  if (argv.empty()) return err = EINVAL, -1;
  std::vector<char*> args;  // posix_spawn's argv: not written to
  args.reserve(argv.size() + 1);
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  for (int i = 0; i < 3; ++i)
    if (fds[i] >= 0 && fds[i] != i) posix_spawn_file_actions_adddup2(&fa, fds[i], i);
  if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);  // glibc 2.29, macOS 10.15
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2})
    sigaddset(&defaults, s);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  rlimit ours{};
  if (nofile && getrlimit(RLIMIT_NOFILE, &ours) != 0) nofile = nullptr;
  if (nofile) setrlimit(RLIMIT_NOFILE, nofile);
  pid_t pid = -1;
  err = ::posix_spawnp(&pid, args[0], &fa, &attr, args.data(), envp);
  if (err == ENOEXEC) {  // sh finds it on PATH again and runs it as a script
    char sh[] = "/bin/sh", c[] = "-c", run[] = "exec \"$0\" \"$@\"";
    std::vector<char*> via_sh{sh, c, run};
    via_sh.insert(via_sh.end(), args.begin(), args.end());  // with its nullptr
    err = ::posix_spawn(&pid, sh, &fa, &attr, via_sh.data(), envp);
  }
  if (nofile) setrlimit(RLIMIT_NOFILE, &ours);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return err == 0 ? pid : -1;
}

}  // namespace distkit::posix
