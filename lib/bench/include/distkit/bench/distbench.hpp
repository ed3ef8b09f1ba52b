// distbench's real entry point: a library function over an already-created
// group, so tests run it in-process with thread ranks. Prints like
// nccl-tests: a `#` preamble (versions, parameters, rank -> host map), one
// row per size with out-of-place and in-place `time algbw busbw #wrong`, and
// an average bus bandwidth footer; or one JSON document with --json. Only
// rank 0 writes; every rank must call it with the same options.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "distkit/runtime/group.hpp"

namespace distkit::bench {

enum class Test { all_reduce, all_gather, reduce_scatter, broadcast, sendrecv, barrier };

struct Options {
  std::vector<Test> tests{Test::all_reduce};
  size_t min_bytes = 8;                  // -b
  size_t max_bytes = 128 << 20;          // -e
  double factor = 2;                     // -f (multiplicative step)
  int iters = 20;                        // -n
  int warmup = 5;                        // -w
  bool check = true;                     // -c
  rt::DType dtype = rt::DType::float32;  // -d
  rt::ReduceOp op = rt::ReduceOp::sum;   // -o
  int root = 0;                          // -r
  bool json = false;                     // --json
  // Test hook: called on each rank's result buffer (bytes) of the checked
  // run before it is verified, e.g. to prove a wrong result is counted.
  std::function<void(rt::Group&, void*, size_t)> tamper;
};

const char* test_name(Test t);
bool parse_test(const std::string& name, Test& out);

// Runs the benchmarks; returns 0 when every checked result was right, 1
// otherwise. Throws rt::Error when the group fails.
int run_distbench(const Options& opt, rt::Group& group, std::ostream& out);

// "8", "64K", "128M", "1G" (powers of 1024) -> bytes. Throws
// rt::Error(invalid_argument) naming the flag.
size_t parse_size(const std::string& text, const std::string& flag);

// N ranks of one group as threads of this process over loopback TCP: a
// quick look at a single machine (--threads), and the runtime's tests.
// `ranks` ranks' endpoints, `per_rank` each, on distinct 127.0.0.1 ports in
// 20000-32000 that were free a moment ago (below the ephemeral range, so no
// outgoing connection takes one meanwhile). Throws rt::Error(system) when it
// finds too few.
std::vector<std::vector<rt::Endpoint>> loopback_endpoints(int ranks, int per_rank = 1);
// Runs rank_main on one thread per rank of `base` (given `base` with its
// rank set) and waits for all of them; what each rank threw (null: nothing).
std::vector<std::exception_ptr> run_rank_threads(const rt::Config& base,
                                                 const std::function<void(rt::Config&)>& rank_main);

// distbench over `ranks` such threads, with a fresh random job secret.
// Rank 0 writes to out. Returns the exit status run_distbench gives.
int run_local_threads(const Options& opt, int ranks, std::ostream& out);

}  // namespace distkit::bench
