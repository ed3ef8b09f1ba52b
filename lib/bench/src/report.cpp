// Text and JSON output of distbench (see report.hpp).
#include "report.hpp"

#include <fmt/printf.h>
#include <nlohmann/json.hpp>
#include "distkit/version.hpp"

namespace distkit::bench {

namespace {

std::string cell_text(const Cell& c) {
  if (!c.present) return fmt::sprintf("  %8s  %7s  %7s  %6s", "N/A", "N/A", "N/A", "N/A");
  return fmt::sprintf("  %8.2f  %7.2f  %7.2f  %6lld", c.time_us, c.algbw, c.busbw, c.wrong);
}

nlohmann::json cell_json(const Cell& c) {
  if (!c.present) return nullptr;
  return {
      {"time_us", c.time_us}, {"algbw_gbs", c.algbw}, {"busbw_gbs", c.busbw}, {"wrong", c.wrong}};
}

}  // namespace

double TestResult::avg_busbw() const {
  double sum = 0;
  int n = 0;
  for (const Row& r : rows)
    for (const Cell* c : {&r.oop, &r.ip})
      if (c->present) {
        sum += c->busbw;
        ++n;
      }
  return n ? sum / n : 0;
}

long long TestResult::wrong() const {
  long long w = 0;
  for (const Row& r : rows) w += r.oop.wrong + r.ip.wrong;
  return w;
}

void print_preamble(std::ostream& out, const Options& o, int ranks,
                    const std::vector<RankInfo>& info) {
  out << "# distbench " << kVersion << " (distkit collective runtime, TCP transport)\n";
  out << fmt::sprintf(
      "# ranks %d minBytes %zu maxBytes %zu step: %g(factor) warmup iters: %d iters: %d "
      "validation: %d dtype: %s\n",
      ranks, o.min_bytes, o.max_bytes, o.factor, o.warmup, o.iters, o.check ? 1 : 0,
      rt::dtype_name(o.dtype));
  out << "#\n# Using ranks\n";
  for (const RankInfo& r : info)
    out << fmt::sprintf("#  Rank %2d Pid %7ld on %s (%s)\n", r.rank, r.pid, r.hostname.c_str(),
                        r.address.c_str());
  out << "#\n";
}

void print_table_header(std::ostream& out, Test t) {
  out << "# " << test_name(t) << "\n";
  out << fmt::sprintf("#%50s%36s%36s\n", "", "out-of-place", "in-place");
  out << fmt::sprintf("#%11s  %12s  %8s  %6s  %5s  %8s  %7s  %7s  %6s  %8s  %7s  %7s  %6s\n",
                      "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
                      "time", "algbw", "busbw", "#wrong");
  out << fmt::sprintf("#%11s  %12s  %8s  %6s  %5s  %8s  %7s  %7s  %6s  %8s  %7s  %7s  %6s\n", "(B)",
                      "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
                      "(GB/s)", "");
}

void print_row(std::ostream& out, const Options& o, const TestResult& t, const Row& r) {
  int root = t.test == Test::broadcast ? o.root : -1;
  out << fmt::sprintf(" %11zu  %12zu  %8s  %6s  %5d", r.bytes, r.count, rt::dtype_name(o.dtype),
                      t.reduces ? rt::reduce_op_name(o.op) : "none", root)
      << cell_text(r.oop) << cell_text(r.ip) << "\n";
}

void print_footer(std::ostream& out, const TestResult& t) {
  out << "# Out of bounds values : " << t.wrong() << (t.wrong() ? " FAILED" : " OK") << "\n";
  out << fmt::sprintf("# Avg bus bandwidth    : %g\n#\n", t.avg_busbw());
}

void print_json(std::ostream& out, const Options& o, int ranks, const std::vector<RankInfo>& info,
                const std::vector<TestResult>& results) {
  nlohmann::json j;
  // Bump the number when a field changes meaning or disappears (scripts
  // check it); adding a field keeps it.
  j["schema"] = "distkit.bench/1";
  j["distbench"] = kVersion;
  j["transport"] = "tcp";
  j["ranks"] = ranks;
  for (const RankInfo& r : info)
    j["rank_hosts"].push_back(
        {{"rank", r.rank}, {"pid", r.pid}, {"hostname", r.hostname}, {"address", r.address}});
  j["params"] = {{"min_bytes", o.min_bytes},
                 {"max_bytes", o.max_bytes},
                 {"factor", o.factor},
                 {"iters", o.iters},
                 {"warmup", o.warmup},
                 {"check", o.check},
                 {"dtype", rt::dtype_name(o.dtype)},
                 {"op", rt::reduce_op_name(o.op)},
                 {"root", o.root}};
  long long wrong = 0;
  j["tests"] = nlohmann::json::array();
  for (const TestResult& t : results) {
    nlohmann::json tj{
        {"test", test_name(t.test)}, {"avg_busbw_gbs", t.avg_busbw()}, {"wrong", t.wrong()}};
    tj["results"] = nlohmann::json::array();
    for (const Row& r : t.rows)
      tj["results"].push_back({{"size", r.bytes},
                               {"count", r.count},
                               {"out_of_place", cell_json(r.oop)},
                               {"in_place", cell_json(r.ip)}});
    wrong += t.wrong();
    j["tests"].push_back(tj);
  }
  j["wrong"] = wrong;
  out << j.dump(2) << "\n";
}

}  // namespace distkit::bench
