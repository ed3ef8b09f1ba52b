// The poll() loop behind LocalExecutor and the system-ssh fallback. One
// thread per command owns every fd of the child; other threads talk to it
// through a queue and a self-pipe ("wake") so write_stdin/close_stdin/abort
// never block. Portable POSIX: posix_spawn, poll, waitpid, fcntl.
#include "process_command.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "distkit/util/posix.hpp"

namespace distkit::ssh::detail {

using namespace distkit::posix;  // Fd, make_pipe, set_nonblock, spawn_in_new_group, write_all
// At namespace scope, not in the anonymous namespace: session_io.hpp has
// the same alias, and a unity build may put both in one translation unit.
using Clock = std::chrono::steady_clock;
namespace {
// After the child exited, how long a background process may keep its
// stdout/stderr open before we stop waiting for EOF.
constexpr auto kExitGrace = std::chrono::milliseconds(200);

std::mutex g_spawn_mutex;  // narrows the pipe()→FD_CLOEXEC window for our own spawns

class ProcessCommand : public RunningCommand {
 public:
  ProcessCommand(const std::vector<std::string>& argv, StreamHandlers h,
                 std::chrono::milliseconds timeout)
      : handlers_(std::move(h)), timeout_(timeout) {
    std::string spawn_error = open_and_spawn(argv);
    thread_ = std::thread([this, spawn_error] {
      if (spawn_error.empty()) return loop();
      if (handlers_.on_exit) handlers_.on_exit(ExitInfo{-1, 0, spawn_error});
    });
  }
  ~ProcessCommand() override { wait(); }

  void write_stdin(std::string_view data) override {
    std::lock_guard lock(mu_);
    if (!stdin_closed_) pending_in_.append(data);
    wake();
  }
  void close_stdin() override {
    std::lock_guard lock(mu_);
    stdin_closed_ = true;
    wake();
  }
  void abort() override {
    std::lock_guard lock(mu_);
    if (pid_ > 0 && !reaped_) ::kill(-pid_, SIGKILL);
    wake();
  }
  void wait() override {
    if (std::this_thread::get_id() == thread_.get_id()) return;  // from a handler
    std::lock_guard lock(join_mu_);
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::string open_and_spawn(const std::vector<std::string>& argv);
  void loop();
  void pump_stdin();
  bool drain(Fd& fd, const std::function<void(std::string_view)>& sink);
  void wake() { write_all(wake_w_.get(), "w"); }

  StreamHandlers handlers_;
  std::chrono::milliseconds timeout_;
  std::thread thread_;
  std::mutex join_mu_;
  std::mutex mu_;  // guards pending_in_, stdin_closed_, pid_/reaped_
  std::string pending_in_;
  bool stdin_closed_ = false;
  pid_t pid_ = -1;
  bool reaped_ = false;
  Fd in_w_, out_r_, err_r_, wake_r_, wake_w_;
};

std::string ProcessCommand::open_and_spawn(const std::vector<std::string>& argv) {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
  std::lock_guard spawn_lock(g_spawn_mutex);
  if (!make_pipe(wake_r_, wake_w_) || !make_pipe(in_r, in_w) || !make_pipe(out_r, out_w) ||
      !make_pipe(err_r, err_w))
    return std::string("cannot create pipes: ") + std::strerror(errno);
  for (int fd : {wake_r_.get(), wake_w_.get(), in_w.get(), out_r.get(), err_r.get()})
    set_nonblock(fd);
#ifdef F_SETNOSIGPIPE
  ::fcntl(in_w.get(), F_SETNOSIGPIPE, 1);
#endif
  int err = 0;
  // No lock: the constructor calls this before the I/O thread exists.
  pid_ = spawn_in_new_group(argv, {in_r.get(), out_w.get(), err_w.get()}, err);
  if (pid_ < 0) return "cannot start " + argv[0] + ": " + std::strerror(err);
  in_w_ = std::move(in_w);
  out_r_ = std::move(out_r);
  err_r_ = std::move(err_r);
  return {};
}

// Reads what is available; returns false (and closes) at EOF or error.
bool ProcessCommand::drain(Fd& fd, const std::function<void(std::string_view)>& sink) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n > 0) {
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    fd.reset();
    return false;
  }
}

void ProcessCommand::pump_stdin() {
  std::lock_guard lock(mu_);
  while (in_w_.valid() && !pending_in_.empty()) {
    ssize_t n = ::write(in_w_.get(), pending_in_.data(), pending_in_.size());
    if (n > 0) {
      pending_in_.erase(0, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return;
    } else {  // EPIPE: the command stopped reading
      pending_in_.clear();
      in_w_.reset();
    }
  }
  if (stdin_closed_ && pending_in_.empty()) in_w_.reset();
}

void ProcessCommand::loop() {
  sigset_t pipe_set;  // a write to a dead reader gives EPIPE, not a signal
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, nullptr);
  const auto start = Clock::now();
  const auto deadline = start + timeout_;
  bool timed_out = false;
  int status = 0;
  std::optional<Clock::time_point> exited_at;
  for (;;) {
    pump_stdin();
    auto now = Clock::now();
    if (timeout_.count() > 0 && !timed_out && now >= deadline) {
      timed_out = true;
      ::kill(-pid_, SIGKILL);  // the group outlives its leader: kill even after reaping
    }
    if (!exited_at) {
      std::lock_guard lock(mu_);  // abort() must not signal a reaped (reusable) pid
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_at = now;
        reaped_ = true;
      }
    }
    bool pipes_open = out_r_.valid() || err_r_.valid();
    if (exited_at && (!pipes_open || now - *exited_at >= kExitGrace)) break;
    pollfd fds[4];
    nfds_t n = 0;
    fds[n++] = {wake_r_.get(), POLLIN, 0};
    if (out_r_.valid()) fds[n++] = {out_r_.get(), POLLIN, 0};
    if (err_r_.valid()) fds[n++] = {err_r_.get(), POLLIN, 0};
    {
      std::lock_guard lock(mu_);
      if (in_w_.valid() && !pending_in_.empty()) fds[n++] = {in_w_.get(), POLLOUT, 0};
    }
    int wait_ms = pipes_open && !exited_at ? 100 : 10;
    if (timeout_.count() > 0 && !timed_out) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
      wait_ms = static_cast<int>(std::min<long long>(wait_ms, std::max<long long>(left, 0) + 1));
    }
    ::poll(fds, n, wait_ms);
    posix::drain_pipe(wake_r_.get());
    if (out_r_.valid()) drain(out_r_, handlers_.on_stdout);
    if (err_r_.valid()) drain(err_r_, handlers_.on_stderr);
  }
  in_w_.reset();
  out_r_.reset();
  err_r_.reset();
  // waitpid() without WUNTRACED reports only an exit or a death by a signal.
  const ExitInfo e =
      timed_out ? ExitInfo{-1, 0, "timed out after " + std::to_string(timeout_.count()) + " ms"}
      : WIFEXITED(status) ? ExitInfo{WEXITSTATUS(status), 0, ""}
                          : ExitInfo{-1, WTERMSIG(status), ""};
  if (handlers_.on_exit) handlers_.on_exit(e);
}

}  // namespace

std::unique_ptr<RunningCommand> spawn_process(const std::vector<std::string>& argv,
                                              StreamHandlers handlers,
                                              std::chrono::milliseconds timeout) {
  return std::make_unique<ProcessCommand>(argv, std::move(handlers), timeout);
}

CommandResult run_process(const std::vector<std::string>& argv, const RunOptions& options) {
  CommandResult r;
  StreamHandlers h;
  h.on_stdout = [&r](std::string_view s) { r.out.append(s); };
  h.on_stderr = [&r](std::string_view s) { r.err.append(s); };
  h.on_exit = [&r](const ExitInfo& e) { r.exit = e; };
  auto cmd = spawn_process(argv, std::move(h), options.timeout);
  if (!options.stdin_data.empty()) cmd->write_stdin(options.stdin_data);
  cmd->close_stdin();
  cmd->wait();
  return r;
}

}  // namespace distkit::ssh::detail
