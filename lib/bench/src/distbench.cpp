// distbench driver: for each test and size, a checked run (the #wrong
// column), warm-up, then timed iterations between barriers; the slowest
// rank's time is reported (all ranks agree through an all-reduce max).
#include "distkit/bench/distbench.hpp"

#include <unistd.h>

#include <chrono>

#include "cases.hpp"
#include "report.hpp"

namespace distkit::bench {

namespace {

constexpr const char* kNames[] = {"all_reduce", "all_gather", "reduce_scatter",
                                  "broadcast",  "sendrecv",   "barrier"};

std::vector<size_t> sizes(const Options& o, Test t) {
  if (t == Test::barrier) return {0};
  std::vector<size_t> out;
  for (size_t s = o.min_bytes; s <= o.max_bytes;) {
    out.push_back(s);
    // Compared before the cast: a product past size_t's range (-f 1e300,
    // -f inf) has no defined conversion.
    const double next = static_cast<double>(s) * o.factor;
    if (next > static_cast<double>(o.max_bytes)) break;
    s = std::max(static_cast<size_t>(next), s + 1);
  }
  return out;
}

std::vector<RankInfo> gather_ranks(rt::Group& g) {
  struct Record {
    int64_t pid;
    char hostname[120];
  } mine{}, none{};
  mine.pid = getpid();
  gethostname(mine.hostname, sizeof mine.hostname - 1);
  std::vector<Record> all(static_cast<size_t>(g.size()), none);
  g.all_gather(&mine, all.data(), sizeof(Record), rt::DType::uint8);
  std::vector<RankInfo> info;
  for (int r = 0; r < g.size(); ++r) {
    Record& rec = all[static_cast<size_t>(r)];
    rec.hostname[sizeof rec.hostname - 1] = '\0';
    info.push_back({r, static_cast<long>(rec.pid), rec.hostname, g.peer_host(r)});
  }
  return info;
}

Cell measure(const Options& o, rt::Group& g, const Case& c, Buffers& b, size_t bytes, bool in_place,
             Test t) {
  Cell cell;
  cell.present = true;
  if (o.check) {
    c.prepare(b, bytes);
    c.run(b, bytes, in_place);
    auto& result = in_place && t != Test::all_gather ? b.in : b.out;
    if (o.tamper) o.tamper(g, result.data(), result.size());
    auto w = static_cast<int64_t>(c.wrong(b, bytes, in_place));
    g.all_reduce(&w, 1, rt::DType::int64, rt::ReduceOp::sum);
    cell.wrong = w;
  }
  c.prepare(b, bytes);
  for (int i = 0; i < o.warmup; ++i) c.run(b, bytes, in_place);
  g.barrier();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < o.iters; ++i) c.run(b, bytes, in_place);
  double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      std::max(o.iters, 1);
  if (t == Test::sendrecv) us /= 2;  // ping-pong: one-way time
  g.all_reduce(&us, 1, rt::DType::float64, rt::ReduceOp::max);
  cell.time_us = us;
  double moved = static_cast<double>(c.reported_bytes(bytes));
  cell.algbw = us > 0 ? moved / us / 1e3 : 0;  // bytes/us -> GB/s
  cell.busbw = cell.algbw * c.busbw_factor();
  return cell;
}

}  // namespace

const char* test_name(Test t) {
  return kNames[static_cast<size_t>(t)];
}

bool parse_test(const std::string& name, Test& out) {
  auto i = static_cast<size_t>(std::find(std::begin(kNames), std::end(kNames), name) - kNames);
  if (i < std::size(kNames)) out = static_cast<Test>(i);
  return i < std::size(kNames);
}

int run_distbench(const Options& o, rt::Group& g, std::ostream& out) {
  bool talk = g.rank() == 0;
  auto info = gather_ranks(g);
  if (talk && !o.json) print_preamble(out, o, g.size(), info);
  std::vector<TestResult> results;
  Buffers b;
  for (Test t : o.tests) {
    Case c(t, o, g);
    TestResult res{t, c.reduces(), {}};
    if (talk && !o.json) print_table_header(out, t);
    for (size_t bytes : sizes(o, t)) {
      Row row{.bytes = c.reported_bytes(bytes),
              .count = c.count(bytes),
              .oop = measure(o, g, c, b, bytes, false, t),
              .ip = c.has_in_place() ? measure(o, g, c, b, bytes, true, t) : Cell{}};
      res.rows.push_back(row);
      if (talk && !o.json) {
        print_row(out, o, res, row);
        out.flush();
      }
    }
    if (talk && !o.json) print_footer(out, res);
    results.push_back(std::move(res));
  }
  if (talk && o.json) print_json(out, o, g.size(), info, results);
  auto wrong = [](const TestResult& r) { return r.wrong() != 0; };
  return std::any_of(results.begin(), results.end(), wrong) ? 1 : 0;
}

}  // namespace distkit::bench
