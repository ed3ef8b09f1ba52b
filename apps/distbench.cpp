// distbench: collective benchmarks with nccl-tests conventions. main() only
// parses flags; the work is distkit::bench::run_distbench over a group made
// from the launcher's environment (or --threads N ranks in this process).
#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>
#include <sstream>

#include "distkit/bench/distbench.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/tool_main.hpp"
#include "distkit/version.hpp"

namespace rt = distkit::rt;
namespace bench = distkit::bench;

namespace {

struct Flags {
  std::string b = "8", e = "128M", tests = "all_reduce", dtype = "float32", op = "sum";
  int check = 1, threads = 0;
};

bench::Options to_options(const Flags& f, bench::Options o) {
  o.min_bytes = bench::parse_size(f.b, "-b/--minbytes");
  o.max_bytes = bench::parse_size(f.e, "-e/--maxbytes");
  if (o.min_bytes > o.max_bytes)
    throw rt::Error(rt::ErrorCode::invalid_argument,
                    "-b/--minbytes: " + f.b + " is larger than -e/--maxbytes " + f.e +
                        "; give a smallest size no larger than the largest");
  if (!(o.factor > 1.0))  // NaN too
    throw rt::Error(rt::ErrorCode::invalid_argument,
                    "-f/--stepfactor: must be above 1; e.g. -f 2 doubles the size each row");
  if (!rt::parse_dtype(f.dtype, o.dtype)) {
    std::string names;
    for (int t = 0; t <= static_cast<int>(rt::DType::complex64); ++t)
      names += std::string(names.empty() ? "" : ", ") + rt::dtype_name(static_cast<rt::DType>(t));
    throw rt::Error(rt::ErrorCode::invalid_argument,
                    "-d/--datatype: unknown type '" + f.dtype + "'; use one of " + names);
  }
  if (!rt::parse_reduce_op(f.op, o.op))
    throw rt::Error(rt::ErrorCode::invalid_argument,
                    "-o/--op: unknown op '" + f.op + "'; use sum, prod, max or min");
  o.check = f.check != 0;
  o.tests.clear();
  std::stringstream list(f.tests == "all"
                             ? "all_reduce,all_gather,reduce_scatter,broadcast,sendrecv,barrier"
                             : f.tests);
  for (std::string name; std::getline(list, name, ',');) {
    bench::Test t;
    if (!bench::parse_test(name, t))
      throw rt::Error(
          rt::ErrorCode::invalid_argument,
          "-t/--test: unknown test '" + name +
              "'; use all_reduce, all_gather, reduce_scatter, broadcast, sendrecv, barrier or all");
    o.tests.push_back(t);
  }
  return o;
}

// Every flag, bound to `f` (as typed) and `o` (ready as they are).
void configure_cli(CLI::App& app, Flags& f, bench::Options& o) {
  app.description(
      "distbench: collective benchmarks (nccl-tests conventions) over the distkit runtime.\n"
      "Run one process per rank under distlaunch, or --threads N on one machine.");
  app.set_version_flag("--version", std::string("distbench ") + distkit::kVersion);
  // Each option up to -t shows its default in --help (--threads has none).
  app.option_defaults()->always_capture_default();
  app.add_option("-b,--minbytes", f.b, "smallest size (bytes, K/M/G suffix)");
  app.add_option("-e,--maxbytes", f.e, "largest size");
  app.add_option("-f,--stepfactor", o.factor, "size multiplier between rows");
  app.add_option("-n,--iters", o.iters, "timed iterations per size")
      ->check(distkit::whole_number(0, std::numeric_limits<int>::max()));
  app.add_option("-w,--warmup_iters", o.warmup, "untimed warm-up iterations")
      ->check(distkit::whole_number(0, std::numeric_limits<int>::max()));
  app.add_option("-c,--check", f.check, "check results (0/1): the #wrong column")
      ->check(distkit::whole_number(0, 1));
  app.add_option("-d,--datatype", f.dtype, "element type (float32, bfloat16, int8, ...)");
  app.add_option("-o,--op", f.op, "reduction: sum, prod, max, min");
  app.add_option("-r,--root", o.root, "broadcast root");
  app.add_option("-t,--test", f.tests,
                 "comma list of all_reduce, all_gather, reduce_scatter, broadcast, sendrecv, "
                 "barrier, or all");
  app.option_defaults()->always_capture_default(false);
  app.add_flag("--json", o.json, "one JSON document instead of the table");
  app.add_option("--threads", f.threads, "run N ranks as threads of this process (loopback)")
      ->check(distkit::whole_number(1, 64));
}

}  // namespace

int main(int argc, char** argv) {
  Flags f;
  bench::Options o;
  return distkit::tool_main(
      "distbench", distkit::arguments(argc, argv), [&](CLI::App& app) { configure_cli(app, f, o); },
      [&] {
        try {
          bench::Options opt = to_options(f, o);
          // The root is checked before any rank prints, threads or not.
          auto check_root = [&](int size) {
            if (opt.root < 0 || opt.root >= size)
              throw rt::Error(rt::ErrorCode::invalid_argument,
                              "-r/--root: " + std::to_string(opt.root) +
                                  " is not a rank of this job; give one of 0 to " +
                                  std::to_string(size - 1));
          };
          if (f.threads > 0) {
            check_root(f.threads);
            return bench::run_local_threads(opt, f.threads, std::cout);
          }
          auto group = rt::Group::from_environment();
          check_root(group->size());
          return bench::run_distbench(opt, *group, std::cout);
        } catch (const rt::Error& e) {
          // The runtime's errors (it links no distkit tool code) become the
          // tools' one format: a bad option or rank environment is usage.
          bool usage =
              e.code() == rt::ErrorCode::invalid_argument || e.code() == rt::ErrorCode::config;
          throw distkit::Error("", e.what(), "",
                               usage ? distkit::ExitCode::usage : distkit::ExitCode::failure);
        }
      });
}
