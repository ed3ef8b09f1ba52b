// One collective as distbench sees it: how a size in bytes maps to element
// counts and buffers, how to run it out-of-place and in-place, how to fill
// inputs with closed-form values and count wrong outputs, and its nccl-tests
// bus-bandwidth factor.
#pragma once

#include <cstddef>
#include <vector>

#include "distkit/bench/distbench.hpp"

namespace distkit::bench {

struct Buffers {
  std::vector<unsigned char> in, out;
};

class Case {
 public:
  Case(Test t, const Options& o, rt::Group& g) : t_(t), o_(o), g_(g) {}
  // Element count shown in the table for a size (nccl-tests: the total).
  size_t count(size_t bytes) const;
  // Bytes actually moved per size (rounded to whole elements, per rank).
  size_t reported_bytes(size_t bytes) const;
  double busbw_factor() const;
  bool has_in_place() const { return t_ != Test::sendrecv && t_ != Test::barrier; }
  bool reduces() const { return t_ == Test::all_reduce || t_ == Test::reduce_scatter; }

  void prepare(Buffers& b, size_t bytes) const;  // allocate + fill inputs
  void run(Buffers& b, size_t bytes, bool in_place) const;
  size_t wrong(const Buffers& b, size_t bytes, bool in_place) const;

 private:
  size_t per_rank(size_t bytes) const;  // elements each rank contributes
  Test t_;
  const Options& o_;
  rt::Group& g_;
};

}  // namespace distkit::bench
