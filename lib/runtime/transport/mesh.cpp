// Connection table and failure state of a job (see mesh.hpp).
#include "transport/mesh.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>

#include "transport/frame.hpp"
#include "transport/socket.hpp"

namespace distkit::rt {

Mesh::Mesh(const Config& cfg) : stripes_(static_cast<size_t>(cfg.size())), cfg_(cfg) {
  cfg_.secret.clear();
  beat();
}

Mesh::~Mesh() {
  for (auto& v : stripes_)
    for (auto& c : v) close_fd(c.fd);
}

std::string Mesh::host(int peer) const {
  // connect_mesh checked that every rank has an endpoint.
  return peer >= 0 && peer < size() ? cfg_.endpoints[static_cast<size_t>(peer)][0].host : "?";
}

std::string Mesh::describe(int peer) const {
  return "rank " + std::to_string(peer) + " (" + host(peer) + ")";
}

void Mesh::check_usable() const {
  if (!failure_.empty())
    throw Error(ErrorCode::broken, "group unusable after an earlier failure: " + failure_,
                failed_peer_);
}

void Mesh::fail(ErrorCode code, const std::string& message, int peer) {
  if (failure_.empty()) {
    failure_ = message;
    failed_peer_ = peer;
    auto notice = encode_abort(message, peer);
    for (auto& v : stripes_)
      for (auto& c : v) {
        if (c.fd < 0) continue;
        iovec iov{notice.data(), notice.size()};
        if (!c.mid_frame) (void)send_vec(c.fd, &iov, 1);  // best effort, never blocks
        shutdown(c.fd, SHUT_RDWR);
        close_fd(c.fd);
        c.fd = -1;
      }
  }
  throw Error(code, message, peer);
}

void Mesh::beat() {
  if (cfg_.heartbeat_file.empty()) return;
  const long long now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  long long last = last_beat_ns_.load(std::memory_order_relaxed);
  if (last != 0 && now - last < 1000000000LL) return;
  if (!last_beat_ns_.compare_exchange_strong(last, now, std::memory_order_relaxed)) return;
  if (::utimes(cfg_.heartbeat_file.c_str(), nullptr) == 0 || errno != ENOENT) return;
  int fd = ::open(cfg_.heartbeat_file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
}

unsigned char* Mesh::staging(size_t slot, size_t bytes) {
  if (staging_.size() <= slot) staging_.resize(slot + 1);
  auto& b = staging_[slot];
  if (b.size() < bytes) b.resize(bytes);
  return b.data();
}

}  // namespace distkit::rt
