// Non-blocking frame pump over poll() (see engine.hpp).
#include "transport/engine.hpp"

#include <poll.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "transport/socket.hpp"

namespace distkit::rt {

namespace {

constexpr int kMaxStreams = 64;

struct Ctx {
  Mesh& mesh;
  Plan& plan;
  FrameOp op;
  uint32_t context;
};

[[noreturn]] void io_failure(Ctx& c, const Stream& s, int err, bool closed) {
  std::string what = closed || err == EPIPE ? "connection closed"
                     : err == ECONNRESET    ? "connection reset"
                                            : std::string(std::strerror(err));
  std::string remedy = closed || err == ECONNRESET || err == EPIPE
                           ? "the rank exited or was killed; see its output"
                           : "check the link to that host";
  c.mesh.fail(ErrorCode::peer,
              c.mesh.describe(s.conn->peer) + ": " + what + " during " + frame_op_name(c.op) +
                  "; " + remedy,
              s.conn->peer);
}

// The peer failed first and says why: repeat its message (which names the
// real culprit) rather than blaming the messenger.
[[noreturn]] void peer_aborted(Ctx& c, const Stream& s, long n) {
  unsigned char payload[kMaxAbortPayload];
  auto len = static_cast<size_t>(n);
  std::string bad =
      read_exact(s.conn->fd, payload, len, Clock::now() + std::chrono::milliseconds(500));
  int culprit = s.conn->peer;
  std::string text = bad.empty() ? decode_abort(payload, len, culprit)
                                 : c.mesh.describe(s.conn->peer) + ": aborted";
  c.mesh.fail(ErrorCode::peer, text + " (reported by " + c.mesh.describe(s.conn->peer) + ")",
              culprit);
}

bool would_block(ssize_t rc) {
  return rc < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
}

// Moves as much of a send stream as the socket takes. True if bytes moved.
bool pump_send(Ctx& c, int idx, Stream& s) {
  bool moved = false;
  while (s.next < s.count) {
    if (!s.active) {
      if (!c.plan.frame(idx, s.next, s.buf, s.len)) return moved;
      FrameHeader h{c.op, c.context, s.conn->send_seq, s.len};
      s.hdr = encode_frame(h);
      s.hdr_done = s.body_done = 0;
      s.active = true;
      s.conn->mid_frame = true;
    }
    iovec v[2];
    int n = 0;
    if (s.hdr_done < kFrameHeaderSize)
      v[n++] = {s.hdr.data() + s.hdr_done, kFrameHeaderSize - s.hdr_done};
    size_t body_left = std::min(s.len - s.body_done, size_t{1} << 30);
    if (body_left > 0) v[n++] = {s.buf + s.body_done, body_left};
    ssize_t put = send_vec(s.conn->fd, v, n);
    if (would_block(put)) {
      s.blocked = errno != EINTR;
      return moved;
    }
    if (put < 0) io_failure(c, s, errno, false);
    auto p = static_cast<size_t>(put);
    size_t h = std::min(p, kFrameHeaderSize - s.hdr_done);
    s.hdr_done += h;
    s.body_done += p - h;
    moved = true;
    if (s.hdr_done == kFrameHeaderSize && s.body_done == s.len) {
      s.active = false;
      s.conn->mid_frame = false;
      ++s.conn->send_seq;
      ++s.next;
    }
  }
  return moved;
}

bool pump_recv(Ctx& c, int idx, Stream& s) {
  bool moved = false;
  while (s.next < s.count) {
    if (!s.active) {
      c.plan.frame(idx, s.next, s.buf, s.len);
      s.hdr_done = s.body_done = 0;
      s.active = true;
    }
    ssize_t got;
    if (s.hdr_done < kFrameHeaderSize) {
      got = recv_some(s.conn->fd, s.hdr.data() + s.hdr_done, kFrameHeaderSize - s.hdr_done);
    } else {
      got = recv_some(s.conn->fd, s.buf + s.body_done, s.len - s.body_done);
    }
    if (would_block(got)) {
      s.blocked = errno != EINTR;
      return moved;
    }
    if (got <= 0) io_failure(c, s, errno, got == 0);
    moved = true;
    if (s.hdr_done < kFrameHeaderSize) {
      s.hdr_done += static_cast<size_t>(got);
      if (s.hdr_done < kFrameHeaderSize) continue;
      if (long n = abort_payload_length(s.hdr.data(), kFrameHeaderSize); n >= 0)
        peer_aborted(c, s, n);
      FrameHeader want{c.op, c.context, s.conn->recv_seq, s.len};
      std::string bad = check_frame(s.hdr.data(), kFrameHeaderSize, want);
      if (!bad.empty())
        c.mesh.fail(ErrorCode::peer,
                    c.mesh.describe(s.conn->peer) + ": " + bad +
                        "; every rank must make the same calls with the same sizes",
                    s.conn->peer);
    } else {
      s.body_done += static_cast<size_t>(got);
    }
    if (s.hdr_done == kFrameHeaderSize && s.body_done == s.len) {
      s.active = false;
      ++s.conn->recv_seq;
      uint32_t j = s.next++;
      c.plan.received(idx, j);
    }
  }
  return moved;
}

[[noreturn]] void stall_failure(Ctx& c, Stream* streams, int n) {
  // Blame a peer that does not drain a frame we started sending (a live rank
  // reads every frame it still expects, so it is stopped or overloaded);
  // failing that, the receive that has waited longest.
  int worst = -1;
  for (int pass = 0; pass < 2 && worst < 0; ++pass)
    for (int i = 0; i < n; ++i) {
      const Stream& s = streams[i];
      if (s.next >= s.count || s.is_send != (pass == 0) || (s.is_send && !s.active)) continue;
      if (worst < 0 || s.last_progress < streams[worst].last_progress) worst = i;
    }
  int peer = worst >= 0 ? streams[worst].conn->peer : -1;
  c.mesh.fail(ErrorCode::peer,
              c.mesh.describe(peer) + ": no progress for " +
                  std::to_string(c.mesh.config().timeout.count()) + " ms during " +
                  frame_op_name(c.op) +
                  "; the rank is stopped, overloaded or unreachable (DISTKIT_TIMEOUT_MS)",
              peer);
}

// Polls `fds` without blocking until one is ready or `spin` has passed,
// yielding the CPU between tries. Returns poll()'s result (0: none ready).
int spin_poll(pollfd* fds, nfds_t k, std::chrono::microseconds spin) {
  if (spin.count() <= 0) return 0;
  auto until = Clock::now() + spin;
  for (;;) {
    int rc = poll(fds, k, 0);
    if (rc != 0 || Clock::now() >= until) return rc;
    sched_yield();
  }
}

}  // namespace

void run_streams(Mesh& mesh, Stream* streams, int n, Plan& plan, FrameOp op, uint32_t context,
                 std::chrono::microseconds spin) {
  mesh.check_usable();
  if (n > kMaxStreams) throw Error(ErrorCode::invalid_argument, "too many streams");
  Ctx c{mesh, plan, op, context};
  auto last_any = Clock::now();
  for (int i = 0; i < n; ++i) streams[i].last_progress = last_any;
  pollfd fds[kMaxStreams];
  for (;;) {
    bool pending = false, moved = false;
    for (int i = 0; i < n; ++i) {
      Stream& s = streams[i];
      if (s.next >= s.count) continue;
      if (!s.blocked) {  // skip sockets known to be full/empty: no wasted syscalls
        bool m = s.is_send ? pump_send(c, i, s) : pump_recv(c, i, s);
        if (m) s.last_progress = last_any = Clock::now();
        moved |= m;
      }
      pending |= s.next < s.count;
    }
    if (!pending) {
      mesh.beat();
      return;
    }
    if (moved) continue;
    int k = 0;
    int owner[kMaxStreams];
    for (int i = 0; i < n; ++i) {
      Stream& s = streams[i];
      if (s.next >= s.count || (s.is_send && !s.active)) continue;
      owner[k] = i;
      fds[k++] = {s.conn->fd, static_cast<short>(s.is_send ? POLLOUT : POLLIN), 0};
    }
    if (k == 0) throw Error(ErrorCode::system, "internal error: plan waits on nothing");
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        last_any + mesh.config().timeout - Clock::now());
    if (left.count() <= 0) stall_failure(c, streams, n);
    int rc = spin_poll(fds, static_cast<nfds_t>(k), spin);
    if (rc == 0) rc = poll(fds, static_cast<nfds_t>(k), static_cast<int>(left.count()) + 1);
    if (rc < 0 && errno != EINTR)
      mesh.fail(ErrorCode::system, std::string("poll: ") + std::strerror(errno), -1);
    for (int j = 0; j < k; ++j)  // ready (or hung up/errored: the next I/O says which)
      if (fds[j].revents != 0) streams[owner[j]].blocked = false;
  }
}

}  // namespace distkit::rt
