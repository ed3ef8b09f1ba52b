// Chunked, striped whole-buffer transfers (see transfers.hpp).
#include "algorithms/transfers.hpp"

#include <algorithm>

namespace distkit::rt {

int Transfers::add(int peer, unsigned char* buf, size_t bytes, bool is_send, int gate) {
  auto& link = c_.link(peer);
  int ns = static_cast<int>(link.size());
  if (ntransfers_ >= 16 || nstreams_ + ns > 64)
    throw Error(ErrorCode::system, "internal error: too many transfers in one step");
  Transfer t{buf, bytes, chunks_for(bytes, c_.mesh.config().chunk_bytes), gate, {}};
  t.stripes = add_striped(streams_, nstreams_, link, is_send, t.chunks);
  std::fill(owner_ + t.stripes.first, owner_ + nstreams_, ntransfers_);
  transfers_[ntransfers_] = t;
  return ntransfers_++;
}

bool Transfers::frame(int s, uint32_t k, unsigned char*& buf, size_t& len) {
  const Transfer& t = transfers_[owner_[s]];
  size_t g = t.stripes.frame(s, k);
  if (t.gate >= 0 && !transfers_[t.gate].stripes.done(streams_, g)) return false;
  size_t b = split_begin(t.bytes, g, t.chunks), e = split_begin(t.bytes, g + 1, t.chunks);
  buf = t.buf + b;
  len = e - b;
  return true;
}

void Transfers::run(FrameOp op) {
  // Latency-bound when every transfer is small: spin a little before
  // blocking (Config::spin). Larger steps are bandwidth-bound; spinning
  // there measured no better and burns CPU a peer on the same core needs.
  constexpr size_t kLatencyBound = size_t{64} * 1024;
  bool small = true;
  for (int i = 0; i < ntransfers_; ++i) small = small && transfers_[i].bytes <= kLatencyBound;
  run_streams(c_.mesh, streams_, nstreams_, *this, op, c_.context,
              small ? c_.mesh.config().spin : std::chrono::microseconds(0));
}

}  // namespace distkit::rt
