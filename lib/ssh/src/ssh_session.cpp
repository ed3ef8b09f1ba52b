// The libssh2 session and its I/O thread (see ssh_session.hpp).
//
// libssh2 sessions are not thread-safe, so exactly one thread touches one:
// the connecting thread until open() returns, then the session's I/O thread.
// Other threads only queue work under `mu_` and wake the thread through a
// self-pipe. Two libssh2 rules shape the loop: only one channel may be in
// the middle of opening at a time (the open state is per session), and a
// call that returned EAGAIN while an outgoing packet was half sent must be
// repeated before any other call sends (so the loop restarts from that
// channel).
#include "ssh_session.hpp"

#include <libssh2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <mutex>
#include <vector>

#include "auth.hpp"
#include "connect_failure.hpp"
#include "distkit/util/posix.hpp"
#include "distkit/util/shell_quote.hpp"
#include "distkit/util/signal_names.hpp"
#include "distkit/util/strings.hpp"
#include "host_keys.hpp"
#include "session_io.hpp"
#include "tcp_connect.hpp"

namespace distkit::ssh::detail {

using namespace distkit::posix;  // Fd, make_pipe, write_all
namespace {

std::once_flag g_libssh2_init;

// When `rc` left the session unusable: throws why, in words a user can act on.
void throw_if_fatal(LIBSSH2_SESSION* s, int rc) {
  if (rc == LIBSSH2_ERROR_SOCKET_RECV || rc == LIBSSH2_ERROR_SOCKET_DISCONNECT)
    throw ConnectFailure("protocol", "the server closed the connection");
  if (rc == LIBSSH2_ERROR_SOCKET_SEND)
    throw ConnectFailure("protocol", "cannot send to the server (connection reset)");
  if (rc == LIBSSH2_ERROR_SOCKET_TIMEOUT || rc == LIBSSH2_ERROR_DECRYPT ||
      rc == LIBSSH2_ERROR_TIMEOUT || rc == LIBSSH2_ERROR_KEX_FAILURE || rc == LIBSSH2_ERROR_PROTO)
    throw ConnectFailure("protocol", last_error(s));
}

// libssh2_session_method_pref() with only the names this libssh2 supports:
// 1.10 drops unknown names itself with an overlapping memcpy (found by
// ASan), so never hand it one.
void set_method_pref(LIBSSH2_SESSION* s, int method, const std::string& wanted) {
  const char** algs = nullptr;
  int n = libssh2_session_supported_algs(s, method, &algs);
  if (n <= 0) return;
  std::string keep;
  for (const auto& name : split(wanted, ','))
    if (std::any_of(algs, algs + n, [&](const char* a) { return name == a; }))
      keep += (keep.empty() ? "" : ",") + name;
  libssh2_free(s, algs);
  if (!keep.empty()) libssh2_session_method_pref(s, method, keep.c_str());
}

}  // namespace

// A channel's step; outside the anonymous namespace because Chan (declared
// in detail) holds one.
enum class Stage { open, exec, run, close, wait_closed, free };

// One command on the session.
struct Chan {
  std::string command;
  StreamHandlers h;
  std::chrono::milliseconds timeout{0};
  Clock::time_point deadline;
  // Guarded by SessionCore::mu_. Bytes before in_off are written: a host
  // agent's channel carries every rank's stdin and can queue 100+ MB, so
  // erasing each written chunk from the front would be quadratic.
  std::string in;
  size_t in_off = 0;
  bool in_close = false;
  bool abort = false;
  // I/O thread only.
  LIBSSH2_CHANNEL* ch = nullptr;
  Stage stage = Stage::open;
  bool eof_sent = false;
  bool abandoned = false;  // timed out or aborted: report now, close quietly later
  bool reported = false;   // on_exit has been called
  ExitInfo result;
  // Completion.
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
};

class SessionCore {
 public:
  ~SessionCore() {
    // Shut the socket down first: a non-blocking libssh2_session_free()
    // that still has channels to close would otherwise return EAGAIN on a
    // dead peer and free nothing. The fd stays ours until close().
    if (sock_ >= 0) ::shutdown(sock_, SHUT_RDWR);
    if (s_) libssh2_session_free(s_);
    if (sock_ >= 0) ::close(sock_);
  }

  void connect(const HostConfig& cfg, const std::string& user, const SessionOptions& o);
  void loop();

  void submit(const std::shared_ptr<Chan>& c) {
    post([&] { queue_.push_back(c); });
  }
  void post(const std::function<void()>& f) {
    std::lock_guard lock(mu_);
    f();
    wake();
  }
  void request_stop() {
    post([this] { stop_ = true; });
  }
  std::thread::id io_thread;
  std::string alias;

 private:
  friend LIBSSH2_RECV_FUNC(recv_and_note);
  bool step(Chan& c);
  bool step_run(Chan& c);
  void collect_exit(Chan& c);
  void finish(const std::shared_ptr<Chan>& c);
  void fail_all(const std::string& message);
  // A packet is half-sent: libssh2 keeps its rest and refuses any other
  // packet (LIBSSH2_ERROR_BAD_USE) until the call that started it is
  // repeated and finishes it.
  bool half_sent() const {
    return (libssh2_session_block_directions(s_) & LIBSSH2_SESSION_BLOCK_OUTBOUND) != 0;
  }
  // "Try again later": EAGAIN, or another call's packet is still half-sent.
  // libssh2 1.10 reports that refusal as SOCKET_SEND from
  // libssh2_channel_send_eof() and from the window adjust inside
  // libssh2_channel_read_ex(): taken for "sent", an EOF was lost (the
  // command waited for stdin forever); taken for fatal, a healthy session
  // was declared lost.
  bool later(long rc) const {
    return rc == LIBSSH2_ERROR_EAGAIN ||
           ((rc == LIBSSH2_ERROR_BAD_USE || rc == LIBSSH2_ERROR_SOCKET_SEND) && half_sent());
  }
  void wake() { write_all(wake_w_.get(), "w"); }
  // Moves queued commands into free places (max_channels_); true if any.
  bool admit_queued();
  int poll_timeout_ms(bool progressed);

  LIBSSH2_SESSION* s_ = nullptr;
  int sock_ = -1;
  Fd wake_r_, wake_w_;
  std::mutex mu_;  // queue_, stop_, Chan::in/in_close/abort
  std::deque<std::shared_ptr<Chan>> queue_;
  bool stop_ = false;
  std::vector<std::shared_ptr<Chan>> active_;
  // The channel whose open or exec request is in flight: one at a time,
  // because libssh2 1.10's non-blocking request wait fails ("Failed waiting
  // for channel success") when it reads another channel's reply first
  // (libssh2 issue #671); seen under ASan/TSan with several ranks per host.
  Chan* opening_ = nullptr;
  // The channel whose call left a packet half-sent: only it may run until
  // that packet is out (it repeats the same call). Stepping the others
  // instead — the loop used to restart from the first channel — never
  // finished the packet: the connection stalled mid-packet (keepalive
  // timeout) and other channels' stdin was dropped on BAD_USE.
  Chan* sender_ = nullptr;
  int max_channels_ = 8;
  std::chrono::milliseconds keepalive_{5000};
  int keepalive_max_ = 3;
  Clock::time_point last_rx_ = Clock::now();
  Clock::time_point busy_since_ = Clock::now();
  std::string dead_;  // why the session is unusable, once it is
};

LIBSSH2_RECV_FUNC(recv_and_note) {
  ssize_t n = ::recv(socket, buffer, length, flags);
  if (n < 0) return -errno;
  if (n > 0) static_cast<SessionCore*>(*abstract)->last_rx_ = Clock::now();
  return n;
}

void SessionCore::connect(const HostConfig& cfg, const std::string& user, const SessionOptions& o) {
  alias = cfg.alias;
  max_channels_ = std::max(1, o.max_channels);
  keepalive_ = std::max(o.keepalive_interval, std::chrono::milliseconds(1000));
  keepalive_max_ = std::max(1, o.keepalive_count_max);
  if (!make_pipe(wake_r_, wake_w_, true))
    throw ConnectFailure("protocol", alias + ": cannot create a pipe");
  const auto deadline = Clock::now() + o.connect_timeout;
  const int port = cfg.port.value_or(22);
  sock_ = tcp_connect(alias, cfg.host_name, port, deadline, o.connect_timeout);
  std::call_once(g_libssh2_init, [] { libssh2_init(0); });
  s_ = libssh2_session_init_ex(nullptr, nullptr, nullptr, this);
  if (!s_)
    throw ConnectFailure("protocol", alias + ": cannot create an SSH session (out of memory)");
  libssh2_session_callback_set(s_, LIBSSH2_CALLBACK_RECV, reinterpret_cast<void*>(&recv_and_note));
  libssh2_session_set_blocking(s_, 0);
  KnownHosts known(s_, cfg.known_hosts_files);
  set_method_pref(s_, LIBSSH2_METHOD_HOSTKEY, known.method_preference(cfg.host_name, port));
  set_method_pref(s_, LIBSSH2_METHOD_KEX,
                  "curve25519-sha256,curve25519-sha256@libssh.org,ecdh-sha2-nistp256,"
                  "ecdh-sha2-nistp384,ecdh-sha2-nistp521,diffie-hellman-group14-sha256,"
                  "diffie-hellman-group16-sha512,diffie-hellman-group-exchange-sha256");
  int rc = retry_until(s_, sock_, deadline, [&] { return libssh2_session_handshake(s_, sock_); });
  if (rc == LIBSSH2_ERROR_TIMEOUT)
    throw ConnectFailure("timeout", alias + ": SSH handshake with " + cfg.host_name +
                                        " did not finish within " +
                                        std::to_string(o.connect_timeout.count()) +
                                        " ms; check that an SSH server answers there");
  if (rc != 0)
    throw ConnectFailure("protocol", alias + ": SSH handshake with " + cfg.host_name + " failed: " +
                                         last_error(s_) + "; check that it runs an SSH server");
  known.verify(s_, alias, cfg.host_name, port, o.strict_host_key_checking);
  authenticate(s_, sock_, cfg, user, deadline);
  libssh2_keepalive_config(s_, 1, static_cast<unsigned>(keepalive_.count() / 1000));
}

void SessionCore::finish(const std::shared_ptr<Chan>& c) {
  if (c.get() == opening_) opening_ = nullptr;
  if (c.get() == sender_) sender_ = nullptr;
  if (c->reported) return;
  c->reported = true;
  if (c->h.on_exit) c->h.on_exit(c->result);
  std::lock_guard lock(c->m);
  c->done = true;
  c->cv.notify_all();
}

void SessionCore::fail_all(const std::string& message) {
  dead_ = message;
  std::deque<std::shared_ptr<Chan>> queued;
  {
    std::lock_guard lock(mu_);
    queued.swap(queue_);
  }
  auto all = active_;
  active_.clear();
  all.insert(all.end(), queued.begin(), queued.end());
  for (auto& c : all) {
    c->result = ExitInfo{-1, 0, message};
    finish(c);
  }
}

void SessionCore::collect_exit(Chan& c) {
  if (!c.result.error.empty()) return;
  char* sig = nullptr;
  size_t sig_len = 0;
  libssh2_channel_get_exit_signal(c.ch, &sig, &sig_len, nullptr, nullptr, nullptr, nullptr);
  if (sig && sig_len > 0) {
    // An unknown name still means "killed by a signal".
    int n = signal_number(std::string_view(sig, sig_len));
    c.result.signal = n ? n : SIGTERM;
    c.result.exit_status = -1;
  } else {
    c.result.exit_status = libssh2_channel_get_exit_status(c.ch);
  }
  if (sig) libssh2_free(s_, sig);
}

// Returns true when the channel made progress. A call that leaves a packet
// half-sent makes this channel the session's sender_ (see loop()).
bool SessionCore::step(Chan& c) {
  switch (c.stage) {
    case Stage::open: {
      if (opening_ && opening_ != &c) return false;
      opening_ = &c;
      // A 256 KiB window (libssh2's default is 2 MiB): the output a channel
      // may have queued here unread, times the channels of a session.
      c.ch = libssh2_channel_open_ex(s_, "session", sizeof "session" - 1, 256 * 1024,
                                     LIBSSH2_CHANNEL_PACKET_DEFAULT, nullptr, 0);
      if (!c.ch) {
        int err = libssh2_session_last_errno(s_);
        if (later(err)) return false;
        opening_ = nullptr;
        throw_if_fatal(s_, err);
        c.result.error = "cannot open an SSH channel on " + alias + ": " + last_error(s_);
        c.stage = Stage::free;
        return true;
      }
      c.stage = Stage::exec;  // still holding opening_ until exec is answered
      return true;
    }
    case Stage::exec: {
      if (opening_ && opening_ != &c) return false;
      opening_ = &c;
      std::string wrapped = "exec /bin/sh -c " + shell_quote(c.command);
      int rc = libssh2_channel_exec(c.ch, wrapped.c_str());
      if (later(rc)) return false;
      opening_ = nullptr;
      if (rc < 0) {
        throw_if_fatal(s_, rc);
        c.result.error = "cannot start the command on " + alias + ": " + last_error(s_);
        c.stage = Stage::close;
        return true;
      }
      c.stage = Stage::run;
      return true;
    }
    case Stage::run:
      return step_run(c);
    case Stage::close: {
      int rc = libssh2_channel_close(c.ch);
      if (later(rc)) return false;
      c.stage = c.result.error.empty() ? Stage::wait_closed : Stage::free;
      return true;
    }
    case Stage::wait_closed: {
      int rc = libssh2_channel_wait_closed(c.ch);
      if (later(rc)) return false;
      collect_exit(c);
      c.stage = Stage::free;
      return true;
    }
    case Stage::free: {
      if (c.ch && later(libssh2_channel_free(c.ch))) return false;
      c.ch = nullptr;
      return true;
    }
  }
  return false;
}

bool SessionCore::step_run(Chan& c) {
  bool progressed = false;
  std::string chunk;
  bool closing = false, aborted = false;
  {
    std::lock_guard lock(mu_);
    chunk = c.in.substr(c.in_off, 32768);
    closing = c.in_close && c.in_off == c.in.size();
    aborted = c.abort;
  }
  // Our own packet half-sent: it goes out before this channel may close.
  const bool mid_packet = sender_ == &c && half_sent();
  if (!mid_packet && (aborted || (c.timeout.count() > 0 && Clock::now() >= c.deadline))) {
    c.result.error =
        aborted ? "aborted" : "timed out after " + std::to_string(c.timeout.count()) + " ms";
    // sshd answers our close only when the remote command has ended: do not
    // make the caller wait for that.
    c.abandoned = true;
    c.stage = Stage::close;
    return true;
  }
  if (!chunk.empty()) {
    ssize_t n = libssh2_channel_write(c.ch, chunk.data(), chunk.size());
    if (n > 0) {
      std::lock_guard lock(mu_);
      c.in_off += static_cast<size_t>(n);
      if (c.in_off == c.in.size() || (c.in_off > (1u << 20) && c.in_off * 2 > c.in.size())) {
        c.in.erase(0, c.in_off);  // amortised: at most as many bytes as were written
        c.in_off = 0;
      }
      progressed = true;
    } else if (!later(n)) {
      std::lock_guard lock(mu_);
      c.in.clear();  // the command stopped reading stdin
      c.in_off = 0;
    }
  } else if (closing && !c.eof_sent) {
    int rc = libssh2_channel_send_eof(c.ch);
    if (!later(rc)) c.eof_sent = progressed = true;
  }
  // The write or EOF just started a packet and left it half-sent: it must be
  // repeated before anything else sends, and a read may send (a window
  // adjust). A packet half-sent on entry may be a read's: then the reads
  // below are what finish it.
  if (!mid_packet && half_sent()) return progressed;
  char buf[32768];
  // At most 16 reads per stream and step: a command writing without pause
  // would otherwise keep this loop reading forever, and nothing would be
  // written to any channel's stdin (distlaunch's heartbeats) meanwhile.
  for (int stream : {0, SSH_EXTENDED_DATA_STDERR}) {
    for (int reads = 0; reads < 16; ++reads) {
      ssize_t n = libssh2_channel_read_ex(c.ch, stream, buf, sizeof buf);
      if (n <= 0) {
        if (n < 0 && !later(n)) throw_if_fatal(s_, static_cast<int>(n));
        break;
      }
      progressed = true;
      auto& sink = stream == 0 ? c.h.on_stdout : c.h.on_stderr;
      if (sink) sink(std::string_view(buf, static_cast<size_t>(n)));
    }
  }
  // Not while a packet of ours is half-sent (say, a read's window adjust):
  // only a read of this channel finishes it, and a closing channel reads no
  // more. libssh2 1.10 would refuse our CLOSE yet mark the channel closed,
  // and the packet would stay half-sent after the channel is freed, every
  // later packet of the session refused.
  if (!half_sent() && libssh2_channel_eof(c.ch)) {
    c.stage = Stage::close;
    progressed = true;
  }
  return progressed;
}

bool SessionCore::admit_queued() {
  std::lock_guard lock(mu_);
  auto busy =
      std::count_if(active_.begin(), active_.end(), [](const auto& c) { return !c->reported; });
  bool admitted = false;
  while (busy++ < max_channels_ && !queue_.empty()) {
    if (active_.empty()) busy_since_ = Clock::now();
    active_.push_back(queue_.front());
    queue_.pop_front();
    admitted = true;
  }
  return admitted;
}

int SessionCore::poll_timeout_ms(bool progressed) {
  if (progressed) return 0;
  auto now = Clock::now();
  auto wait = std::chrono::milliseconds(500);
  for (const auto& c : active_)
    if (c->timeout.count() > 0 && c->stage == Stage::run)
      wait =
          std::min(wait, std::chrono::duration_cast<std::chrono::milliseconds>(c->deadline - now));
  return static_cast<int>(std::max<long long>(wait.count(), 0));
}

void SessionCore::loop() {
  for (;;) {
    {
      std::lock_guard lock(mu_);
      if (stop_) break;
    }
    admit_queued();
    if (!dead_.empty()) {
      fail_all(dead_);
    }
    bool progressed = false;
    try {
      if (!half_sent()) sender_ = nullptr;
      for (size_t i = 0; i < active_.size(); ++i) {
        auto c = active_[i];
        if (sender_ && c.get() != sender_) continue;  // its packet first
        const bool before = half_sent();
        bool p = step(*c);
        progressed |= p;
        if (!before && half_sent())
          sender_ = c.get();
        else if (c.get() == sender_ && !half_sent())
          sender_ = nullptr;
        if (c->stage == Stage::free && !c->ch) {
          active_.erase(active_.begin() + static_cast<long>(i--));
          finish(c);
        } else if (c->abandoned && !c->reported) {
          finish(c);
        }
        if (sender_ && half_sent()) break;  // wait for the socket (POLLOUT), then it again
      }
      if (!active_.empty()) {
        // No keepalive while a channel's packet is half-sent (it would be
        // refused); a keepalive's own half-sent packet is finished by this
        // same call. The silence check below runs either way: a cut link
        // mid-packet must still be noticed.
        if (!(sender_ && half_sent())) {
          int next = 0;
          int rc = libssh2_keepalive_send(s_, &next);
          if (rc != 0 && rc != LIBSSH2_ERROR_EAGAIN) throw_if_fatal(s_, rc);
        }
        auto silent = Clock::now() - std::max(last_rx_, busy_since_);
        if (silent > keepalive_ * keepalive_max_)
          throw ConnectFailure(
              "timeout", "no answer to " + std::to_string(keepalive_max_) + " keepalives in " +
                             std::to_string((keepalive_ * keepalive_max_).count()) + " ms");
      }
    } catch (const ConnectFailure& f) {
      fail_all("connection to " + alias + " lost: " + f.what());
      continue;
    }
    // The commands that just ended freed their places: queued ones take them
    // now. Otherwise, when every active command ended in this same pass, the
    // session would look idle and wait on the wake pipe alone, forever: no
    // one wakes it for commands queued long ago (issue #23).
    if (admit_queued()) progressed = true;
    pollfd fds[2];
    fds[0] = {wake_r_.get(), POLLIN, 0};
    fds[1] = {sock_, static_cast<short>(POLLIN | (half_sent() ? POLLOUT : 0)), 0};
    // Idle, the socket is not watched: unread bytes (a late keepalive reply,
    // the server going away) would keep it readable and spin this loop; the
    // next command reads them.
    bool watch_socket = dead_.empty() && !active_.empty();
    if (watch_socket) ack_now(sock_);
    ::poll(fds, watch_socket ? 2 : 1, watch_socket ? poll_timeout_ms(progressed) : -1);
    posix::drain_pipe(wake_r_.get());
  }
  fail_all("the SSH session to " + alias + " was closed");
  libssh2_session_disconnect(s_, "distkit done");
}

// ---- handles ---------------------------------------------------------------

namespace {

class SshCommand : public RunningCommand {
 public:
  SshCommand(std::shared_ptr<SshSession> session, std::shared_ptr<SessionCore> core,
             std::shared_ptr<Chan> c)
      : session_(std::move(session)), core_(std::move(core)), c_(std::move(c)) {}
  ~SshCommand() override { wait(); }
  void write_stdin(std::string_view data) override {
    core_->post([&] {
      if (!c_->in_close) c_->in.append(data);
    });
  }
  void close_stdin() override {
    core_->post([&] { c_->in_close = true; });
  }
  void abort() override {
    core_->post([&] { c_->abort = true; });
  }
  void wait() override {
    if (std::this_thread::get_id() == core_->io_thread) return;  // from a handler
    std::unique_lock lock(c_->m);
    c_->cv.wait(lock, [&] { return c_->done; });
  }

 private:
  std::shared_ptr<SshSession> session_;
  std::shared_ptr<SessionCore> core_;
  std::shared_ptr<Chan> c_;
};

}  // namespace

std::shared_ptr<SshSession> SshSession::open(const HostConfig& cfg, const std::string& user,
                                             const SessionOptions& options) {
  auto core = std::make_shared<SessionCore>();
  core->connect(cfg, user, options);
  std::shared_ptr<SshSession> session(new SshSession());
  session->core_ = core;
  session->thread_ = std::thread([core] { core->loop(); });
  core->io_thread = session->thread_.get_id();
  return session;
}

void SshSession::request_stop() {
  core_->request_stop();
}

SshSession::~SshSession() {
  core_->request_stop();
  if (std::this_thread::get_id() == thread_.get_id())
    thread_.detach();  // the thread owns core_
  else if (thread_.joinable())
    thread_.join();
}

std::unique_ptr<RunningCommand> SshSession::start(const std::string& command,
                                                  StreamHandlers handlers,
                                                  std::chrono::milliseconds timeout) {
  auto c = std::make_shared<Chan>();
  c->command = command;
  c->h = std::move(handlers);
  c->timeout = timeout;
  c->deadline = Clock::now() + timeout;
  auto handle = std::make_unique<SshCommand>(shared_from_this(), core_, c);
  core_->submit(c);
  return handle;
}

}  // namespace distkit::ssh::detail
