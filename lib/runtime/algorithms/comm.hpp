// What an algorithm sees of a group: its size, its rank, the connections to
// each member (by group rank) and the context stamped on every frame. Also
// the chunking and striping arithmetic every pipelined algorithm shares.
#pragma once

#include <cstddef>
#include <vector>

#include "distkit/runtime/types.hpp"
#include "transport/engine.hpp"

namespace distkit::rt {

struct Comm {
  Mesh& mesh;
  const std::vector<int>& members;  // group rank -> world rank
  int rank;
  uint32_t context;

  int size() const { return static_cast<int>(members.size()); }
  std::vector<Conn>& link(int peer) const {
    return mesh.stripes(members[static_cast<size_t>(peer)]);
  }
  int wrap(long long r) const {
    long long n = size();
    return static_cast<int>(((r % n) + n) % n);
  }
};

// Piece i of n when splitting `total` units as evenly as possible.
inline size_t split_begin(size_t total, size_t i, size_t n) {
  return total / n * i + (total % n) * i / n;  // floor(total*i/n), no overflow
}

// Number of chunks so that no chunk exceeds chunk_bytes (at least 1).
inline size_t chunks_for(size_t bytes, size_t chunk_bytes) {
  return bytes == 0 ? 1 : (bytes + chunk_bytes - 1) / chunk_bytes;
}

// Streams first..first+n-1 of a plan: one per connection of a link, the
// one on stripe s moving frames g = s, s+n, ... of a transfer.
struct Stripes {
  int first = 0, n = 0;
  // The transfer's frame number of frame k of stream s.
  size_t frame(int s, uint32_t k) const {
    return static_cast<size_t>(s - first) + static_cast<size_t>(k) * static_cast<size_t>(n);
  }
  // Has frame g fully moved?
  bool done(const Stream* streams, size_t g) const {
    auto ns = static_cast<size_t>(n);
    return streams[first + static_cast<int>(g % ns)].next > g / ns;
  }
};

// Appends the streams of a `total`-frame transfer striped over `link` to
// streams[count..].
inline Stripes add_striped(Stream* streams, int& count, std::vector<Conn>& link, bool is_send,
                           size_t total) {
  Stripes st{count, static_cast<int>(link.size())};
  for (size_t s = 0, ns = link.size(); s < ns; ++s) {
    uint32_t frames = s >= total ? 0 : static_cast<uint32_t>((total - s + ns - 1) / ns);
    streams[count++] = Stream{&link[s], is_send, frames};
  }
  return st;
}

// The collectives (algorithms/*.cpp). Buffers are already validated.
void ring_all_reduce(Comm& c, unsigned char* data, size_t count, DType t, ReduceOp op);
void ring_reduce_scatter(Comm& c, unsigned char* work, size_t count, DType t, ReduceOp op);
void ring_all_gather(Comm& c, unsigned char* out, size_t count, DType t, FrameOp op);
void recursive_doubling_all_reduce(Comm& c, unsigned char* data, size_t count, DType t,
                                   ReduceOp op);
void broadcast_tree(Comm& c, unsigned char* data, size_t bytes, int root);
void broadcast_chain(Comm& c, unsigned char* data, size_t bytes, int root);
void dissemination_barrier(Comm& c);
void p2p_send(Comm& c, const unsigned char* data, size_t bytes, int dst, FrameOp op = FrameOp::p2p);
void p2p_recv(Comm& c, unsigned char* data, size_t bytes, int src, FrameOp op = FrameOp::p2p);

}  // namespace distkit::rt
