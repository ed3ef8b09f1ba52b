// Pipelined bidirectional ring: reduce-scatter, all-gather, and all-reduce
// as the two back to back (the large-message algorithm).
//
// The buffer is cut into `size` segments (rank r ends the reduce-scatter
// owning segment r). Each segment is halved: half 0 travels clockwise (send
// to r+1, receive from r-1), half 1 counter-clockwise, so every link carries
// data both ways at once (with 2 ranks one direction already does). Each
// half is cut into C chunks; step t+1 of chunk c may be sent as soon as step
// t of chunk c has arrived (and been reduced), so reduction overlaps the
// transfer of the next chunks. Global frame g = t*C + c of a direction goes
// over stripe g mod S of the link.
#include <algorithm>

#include "algorithms/comm.hpp"
#include "algorithms/reduce.hpp"

namespace distkit::rt {

namespace {

class RingPlan : public Plan {
 public:
  RingPlan(Comm& c, unsigned char* data, size_t count, DType t, ReduceOp op, bool reduce,
           bool gather)
      : c_(c),
        data_(data),
        count_(count),
        t_(t),
        op_(op),
        elem_(dtype_size(t)),
        n_(c.size()),
        r_(c.rank),
        dirs_(n_ == 2 ? 1 : 2),
        rs_steps_(reduce ? n_ - 1 : 0),
        steps_(rs_steps_ + (gather ? n_ - 1 : 0)) {
    size_t biggest = 0;
    for (int k = 0; k < n_; ++k) biggest = std::max(biggest, seg_begin(k + 1) - seg_begin(k));
    size_t half = (biggest + static_cast<size_t>(dirs_) - 1) / static_cast<size_t>(dirs_);
    chunks_ = chunks_for(half * elem_, c.mesh.config().chunk_bytes);
    chunk_max_ = (half + chunks_ - 1) / chunks_ * elem_ + elem_;
    build_streams();
  }

  void run(FrameOp op) { run_streams(c_.mesh, streams_, nstreams_, *this, op, c_.context); }

  bool frame(int s, uint32_t k, unsigned char*& buf, size_t& len) override {
    const Info& in = info_[s];
    size_t g = in.stripes.frame(s, k);
    int t = static_cast<int>(g / chunks_);
    size_t ch = g % chunks_;
    if (in.send && t > 0 && !recv_[in.dir].done(streams_, g - chunks_)) return false;
    int k_seg = segment(in.dir, t, in.send);
    auto [b, e] = chunk_range(k_seg, in.dir, ch);
    len = (e - b) * elem_;
    bool staged = !in.send && t < rs_steps_;
    buf = staged ? c_.mesh.staging(static_cast<size_t>(s), chunk_max_) : data_ + b * elem_;
    return true;
  }

  void received(int s, uint32_t k) override {
    const Info& in = info_[s];
    size_t g = in.stripes.frame(s, k);
    int t = static_cast<int>(g / chunks_);
    if (t >= rs_steps_) return;
    auto [b, e] = chunk_range(segment(in.dir, t, false), in.dir, g % chunks_);
    reduce_into(data_ + b * elem_, c_.mesh.staging(static_cast<size_t>(s), chunk_max_), e - b, t_,
                op_);
  }

 private:
  struct Info {
    int dir;
    bool send;
    Stripes stripes;  // the streams of this direction and side
  };

  // First element of segment k: the buffer split as evenly as possible
  // (exactly into blocks of `count` for reduce-scatter and all-gather).
  size_t seg_begin(int k) const {
    return split_begin(count_, static_cast<size_t>(k), static_cast<size_t>(n_));
  }

  // Segment sent (or received) at global step t in direction d.
  int segment(int d, int t, bool send) const {
    int sign = d == 0 ? -1 : 1;
    long long off;
    if (t < rs_steps_)
      off = send ? t + 1 : t + 2;
    else
      off = send ? t - rs_steps_ : t - rs_steps_ + 1;
    return c_.wrap(r_ + sign * off);
  }

  std::pair<size_t, size_t> chunk_range(int k, int d, size_t ch) const {
    size_t sb = seg_begin(k), len = seg_begin(k + 1) - sb;
    size_t hb = sb + split_begin(len, static_cast<size_t>(d), static_cast<size_t>(dirs_));
    size_t hl = sb + split_begin(len, static_cast<size_t>(d) + 1, static_cast<size_t>(dirs_)) - hb;
    return {hb + split_begin(hl, ch, chunks_), hb + split_begin(hl, ch + 1, chunks_)};
  }

  void build_streams() {
    size_t total = static_cast<size_t>(steps_) * chunks_;
    for (int d = 0; d < dirs_; ++d) {
      int right = c_.wrap(r_ + 1), left = c_.wrap(r_ - 1);
      int to = d == 0 ? right : left, from = d == 0 ? left : right;
      add(d, true, to, total);
      recv_[d] = add(d, false, from, total);
    }
  }

  Stripes add(int d, bool send, int peer, size_t total) {
    Stripes st = add_striped(streams_, nstreams_, c_.link(peer), send, total);
    std::fill(info_ + st.first, info_ + nstreams_, Info{d, send, st});
    return st;
  }

  Comm& c_;
  unsigned char* data_;
  size_t count_;  // elements in the whole buffer
  DType t_;
  ReduceOp op_;
  size_t elem_;
  int n_, r_, dirs_, rs_steps_, steps_;
  size_t chunks_ = 1, chunk_max_ = 0;
  Stream streams_[64];
  Info info_[64];
  int nstreams_ = 0;
  Stripes recv_[2];  // each direction's receive streams
};

}  // namespace

void ring_all_reduce(Comm& c, unsigned char* data, size_t count, DType t, ReduceOp op) {
  RingPlan(c, data, count, t, op, true, true).run(FrameOp::all_reduce);
}

void ring_reduce_scatter(Comm& c, unsigned char* work, size_t count, DType t, ReduceOp op) {
  RingPlan(c, work, count * static_cast<size_t>(c.size()), t, op, true, false)
      .run(FrameOp::reduce_scatter);
}

void ring_all_gather(Comm& c, unsigned char* out, size_t count, DType t, FrameOp op) {
  RingPlan(c, out, count * static_cast<size_t>(c.size()), t, ReduceOp::sum, false, true).run(op);
}

}  // namespace distkit::rt
