// Latency-bound algorithms: recursive-doubling all-reduce (log2 n exchange
// rounds; non-powers of two fold the extra ranks in first and out last, as
// MPICH does), binomial-tree broadcast, dissemination barrier.

#include "algorithms/reduce.hpp"
#include "algorithms/transfers.hpp"

namespace distkit::rt {

void recursive_doubling_all_reduce(Comm& c, unsigned char* data, size_t count, DType t,
                                   ReduceOp op) {
  int n = c.size(), r = c.rank;
  size_t bytes = count * dtype_size(t);
  unsigned char* scratch = c.mesh.staging(0, bytes);
  int p = 1;
  while (p * 2 <= n) p *= 2;
  int extra = n - p;
  // Fold: among the first 2*extra ranks, even ones hand their data to the
  // next odd one and sit out.
  int vr;
  if (r < 2 * extra) {
    if (r % 2 == 0) {
      p2p_send(c, data, bytes, r + 1, FrameOp::all_reduce);
      vr = -1;
    } else {
      p2p_recv(c, scratch, bytes, r - 1, FrameOp::all_reduce);
      reduce_into(data, scratch, count, t, op);
      vr = r / 2;
    }
  } else {
    vr = r - extra;
  }
  if (vr >= 0) {
    for (int mask = 1; mask < p; mask <<= 1) {
      int pv = vr ^ mask;
      int peer = pv < extra ? pv * 2 + 1 : pv + extra;
      Transfers x(c);
      x.send(peer, data, bytes);
      x.recv(peer, scratch, bytes);
      x.run(FrameOp::all_reduce);
      reduce_into(data, scratch, count, t, op);
    }
  }
  if (r < 2 * extra) {
    if (r % 2 == 0)
      p2p_recv(c, data, bytes, r + 1, FrameOp::all_reduce);
    else
      p2p_send(c, data, bytes, r - 1, FrameOp::all_reduce);
  }
}

void broadcast_tree(Comm& c, unsigned char* data, size_t bytes, int root) {
  int n = c.size();
  int vr = c.wrap(c.rank - root);
  Transfers x(c);
  int mask = 1;
  while (mask < n && !(vr & mask)) mask <<= 1;  // our parent: lowest set bit of vr
  int from = mask < n ? x.recv(c.wrap(vr - mask + root), data, bytes) : -1;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) x.send(c.wrap(vr + mask + root), data, bytes, from);
  x.run(FrameOp::broadcast);
}

void dissemination_barrier(Comm& c) {
  for (int d = 1; d < c.size(); d <<= 1) {
    Transfers x(c);
    x.send(c.wrap(c.rank + d), nullptr, 0);
    x.recv(c.wrap(c.rank - d), nullptr, 0);
    x.run(FrameOp::barrier);
  }
}

}  // namespace distkit::rt
