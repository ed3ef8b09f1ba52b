// Bandwidth-bound point-to-point and broadcast: a pipelined chain from the
// root in both directions around the ring (each half of the buffer goes one
// way, so every link carries data both ways), and chunked, striped
// send/recv.
#include "algorithms/transfers.hpp"

namespace distkit::rt {

void broadcast_chain(Comm& c, unsigned char* data, size_t bytes, int root) {
  int n = c.size();
  int vr = c.wrap(c.rank - root);
  int dirs = n == 2 ? 1 : 2;
  Transfers x(c);
  for (int d = 0; d < dirs; ++d) {
    size_t b = split_begin(bytes, static_cast<size_t>(d), static_cast<size_t>(dirs));
    size_t e = split_begin(bytes, static_cast<size_t>(d) + 1, static_cast<size_t>(dirs));
    int step = d == 0 ? 1 : -1;
    // Direction 0 covers virtual ranks 1..n-1 in order; direction 1 covers
    // them in reverse. Each rank receives from its predecessor and forwards.
    bool last = d == 0 ? vr == n - 1 : vr == 1;
    int gate = -1;
    if (vr != 0) gate = x.recv(c.wrap(c.rank - step), data + b, e - b);
    if (!last) x.send(c.wrap(c.rank + step), data + b, e - b, gate);
  }
  x.run(FrameOp::broadcast);
}

void p2p_send(Comm& c, const unsigned char* data, size_t bytes, int dst, FrameOp op) {
  Transfers x(c);
  x.send(dst, data, bytes);
  x.run(op);
}

void p2p_recv(Comm& c, unsigned char* data, size_t bytes, int src, FrameOp op) {
  Transfers x(c);
  x.recv(src, data, bytes);
  x.run(op);
}

}  // namespace distkit::rt
