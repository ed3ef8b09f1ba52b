// Per-collective sizing, running and checking for distbench (see cases.hpp).
#include "cases.hpp"

#include <cstring>

#include "values.hpp"

namespace distkit::bench {

size_t Case::per_rank(size_t bytes) const {
  size_t n = static_cast<size_t>(g_.size());
  if (t_ == Test::all_gather || t_ == Test::reduce_scatter)
    return bytes / rt::dtype_size(o_.dtype) / n;
  if (t_ == Test::barrier) return 0;
  return bytes / rt::dtype_size(o_.dtype);
}

size_t Case::count(size_t bytes) const {
  size_t c = per_rank(bytes);
  if (t_ == Test::all_gather || t_ == Test::reduce_scatter) c *= static_cast<size_t>(g_.size());
  return c;
}

size_t Case::reported_bytes(size_t bytes) const {
  return count(bytes) * rt::dtype_size(o_.dtype);
}

double Case::busbw_factor() const {
  double n = g_.size();
  switch (t_) {
    case Test::all_reduce:
      return 2 * (n - 1) / n;
    case Test::all_gather:
    case Test::reduce_scatter:
      return (n - 1) / n;
    default:
      return 1;
  }
}

void Case::prepare(Buffers& b, size_t bytes) const {
  size_t c = per_rank(bytes), e = rt::dtype_size(o_.dtype), n = static_cast<size_t>(g_.size());
  int r = g_.rank();
  size_t in_elems = t_ == Test::reduce_scatter ? c * n : c;
  size_t out_elems = t_ == Test::all_gather ? c * n : c;
  b.in.assign(in_elems * e, 0);
  b.out.assign(out_elems * e, 0);
  for (size_t i = 0; i < in_elems; ++i)
    store(o_.dtype, b.in.data(), i,
          !reduces() ? pattern(t_ == Test::broadcast ? (r == o_.root ? 0 : r + 1) : r, i)
          : o_.dtype == rt::DType::boolean ? int64_t{bool_input(r, i)}
                                           : reduce_input(o_.op, r, i));
  if (t_ == Test::all_gather)  // in-place input: our block of the output
    std::memcpy(b.out.data() + static_cast<size_t>(r) * c * e, b.in.data(), c * e);
}

void Case::run(Buffers& b, size_t bytes, bool in_place) const {
  size_t c = per_rank(bytes), e = rt::dtype_size(o_.dtype);
  auto r = static_cast<size_t>(g_.rank());
  unsigned char* in = b.in.data();
  unsigned char* out = b.out.data();
  switch (t_) {
    case Test::all_reduce:
      return in_place ? g_.all_reduce(in, c, o_.dtype, o_.op)
                      : g_.all_reduce(in, out, c, o_.dtype, o_.op);
    case Test::all_gather:
      if (in_place) return g_.all_gather(out + r * c * e, out, c, o_.dtype);
      return g_.all_gather(in, out, c, o_.dtype);
    case Test::reduce_scatter:
      if (in_place) return g_.reduce_scatter(in, in + r * c * e, c, o_.dtype, o_.op);
      return g_.reduce_scatter(in, out, c, o_.dtype, o_.op);
    case Test::broadcast:
      if (in_place) return g_.broadcast(in, c, o_.dtype, o_.root);
      if (g_.rank() == o_.root) std::memcpy(out, in, c * e);
      return g_.broadcast(out, c, o_.dtype, o_.root);
    case Test::sendrecv: {
      int peer = g_.rank() ^ 1;
      if (peer >= g_.size()) return;
      if (g_.rank() % 2 == 0) {
        g_.send(in, c * e, peer);
        g_.recv(out, c * e, peer);
      } else {
        g_.recv(out, c * e, peer);
        g_.send(out, c * e, peer);
      }
      return;
    }
    case Test::barrier:
      return g_.barrier();
  }
}

size_t Case::wrong(const Buffers& b, size_t bytes, bool in_place) const {
  size_t c = per_rank(bytes), n = static_cast<size_t>(g_.size());
  int r = g_.rank();
  const unsigned char* res = in_place && t_ != Test::all_gather ? b.in.data() : b.out.data();
  size_t bad = 0;
  auto expect_reduced = [&](size_t gi) {
    return o_.dtype == rt::DType::boolean ? int64_t{bool_expected(o_.op, g_.size(), gi)}
                                          : reduce_expected(o_.op, g_.size(), gi);
  };
  switch (t_) {
    case Test::all_reduce:
      for (size_t i = 0; i < c; ++i) bad += !equals(o_.dtype, res, i, expect_reduced(i));
      break;
    case Test::reduce_scatter: {
      size_t off = in_place ? static_cast<size_t>(r) * c : 0;
      for (size_t i = 0; i < c; ++i)
        bad += !equals(o_.dtype, res, off + i, expect_reduced(static_cast<size_t>(r) * c + i));
      break;
    }
    case Test::all_gather:
      for (size_t k = 0; k < c * n; ++k)
        bad += !equals(o_.dtype, res, k, pattern(static_cast<int>(k / c), k % c));
      break;
    case Test::broadcast:
      for (size_t i = 0; i < c; ++i) bad += !equals(o_.dtype, res, i, pattern(0, i));
      break;
    case Test::sendrecv:
      if ((r ^ 1) < g_.size())
        for (size_t i = 0; i < c; ++i)
          bad += !equals(o_.dtype, b.out.data(), i, pattern(r & ~1, i));
      break;
    case Test::barrier:
      break;
  }
  return bad;
}

}  // namespace distkit::bench
