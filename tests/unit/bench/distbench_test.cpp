// distbench in-process with thread ranks over loopback: the nccl-tests table,
// the JSON document, result checking and the exit status.
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "catch.hpp"
#include "distkit/bench/distbench.hpp"

using namespace distkit;
using namespace distkit::bench;

namespace {

Options small(std::vector<Test> tests) {
  Options o;
  o.tests = std::move(tests);
  o.min_bytes = 8;
  o.max_bytes = 64 << 10;
  o.factor = 4;
  o.iters = 2;
  o.warmup = 1;
  return o;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> v;
  std::istringstream in(line);
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

}  // namespace

TEST_CASE("distbench prints the nccl-tests table with a preamble and a footer", "[bench]") {
  std::ostringstream out;
  int rc = run_local_threads(small({Test::all_reduce}), 3, out);
  CHECK(rc == 0);
  auto ls = lines(out.str());
  REQUIRE(ls.size() > 10);
  CHECK(ls[0] == "# distbench 0.1.0 (distkit collective runtime, TCP transport)");
  CHECK(ls[1].rfind("# ranks 3 minBytes 8 maxBytes 65536 step: 4(factor) warmup iters: 1 iters: 2",
                    0) == 0);
  int ranks_listed = 0, rows = 0;
  for (const auto& l : ls) {
    if (l.rfind("#  Rank ", 0) == 0) ++ranks_listed;
    if (l.empty() || l[0] == '#') continue;
    auto f = fields(l);
    REQUIRE(f.size() == 13);
    CHECK(f[2] == "float32");
    CHECK(f[3] == "sum");
    CHECK(f[8] == "0");   // out-of-place #wrong
    CHECK(f[12] == "0");  // in-place #wrong
    double algbw = std::stod(f[6]), busbw = std::stod(f[7]);
    CHECK(busbw == Approx(algbw * 4.0 / 3.0).margin(0.011));
    ++rows;
  }
  CHECK(ranks_listed == 3);
  CHECK(rows == 7);  // 8, 32, 128, ..., 32768 (x4 up to 64K)
  CHECK(out.str().find("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : ") !=
        std::string::npos);
}

TEST_CASE("distbench counts wrong results and exits non-zero", "[bench]") {
  Options o = small({Test::all_reduce});
  o.max_bytes = 1024;
  o.tamper = [](rt::Group& g, void* buf, size_t bytes) {
    if (g.rank() == 1 && bytes >= 4) static_cast<unsigned char*>(buf)[0] ^= 0x55;
  };
  std::ostringstream out;
  CHECK(run_local_threads(o, 2, out) == 1);  // 4 sizes x 2 placements x 1 element
  CHECK(out.str().find("# Out of bounds values : 8 FAILED") != std::string::npos);
}

TEST_CASE("distbench --json gives every test and size with bandwidths", "[bench]") {
  Options o = small({Test::all_gather, Test::sendrecv, Test::barrier});
  o.json = true;
  std::ostringstream out;
  REQUIRE(run_local_threads(o, 2, out) == 0);
  auto j = nlohmann::json::parse(out.str());
  CHECK(j["schema"] == "distkit.bench/1");
  CHECK(j["ranks"] == 2);
  CHECK(j["wrong"] == 0);
  REQUIRE(j["tests"].size() == 3);
  CHECK(j["tests"][0]["test"] == "all_gather");
  auto& res = j["tests"][0]["results"];
  CHECK(res[0]["size"] == 8);
  CHECK(res[1]["size"] == 32);
  CHECK(res[0]["in_place"]["wrong"] == 0);
  CHECK(j["tests"][1]["results"][0]["in_place"].is_null());
  CHECK(j["tests"][2]["results"].size() == 1);
  CHECK(j["rank_hosts"].size() == 2);
}

// MLX's jaccl_allreduce_bench (MLX #3412) and nccl-tests compute the two
// bandwidths this way; distbench's all-reduce columns must mean the same.
TEST_CASE("all-reduce algbw is bytes / time and busbw is algbw * 2(n-1)/n, as MLX's bench",
          "[bench]") {
  for (int n : {2, 4}) {
    Options o = small({Test::all_reduce});
    o.min_bytes = 64 << 10;
    o.max_bytes = 256 << 10;
    o.json = true;
    std::ostringstream out;
    REQUIRE(run_local_threads(o, n, out) == 0);
    auto j = nlohmann::json::parse(out.str());
    for (const auto& r : j["tests"][0]["results"]) {
      double bytes = r["size"].get<double>();
      CHECK(bytes == 4.0 * r["count"].get<double>());  // float32 elements
      for (const char* place : {"out_of_place", "in_place"}) {
        const auto& c = r[place];
        double us = c["time_us"], algbw = c["algbw_gbs"], busbw = c["busbw_gbs"];
        REQUIRE(us > 0);
        CHECK(algbw == Approx(bytes / (us * 1e-6) / 1e9));  // GB/s: 10^9 bytes a second
        CHECK(busbw == Approx(algbw * 2 * (n - 1) / n));
      }
    }
  }
}

TEST_CASE("every test checks clean for several dtypes on three ranks", "[bench]") {
  for (rt::DType t :
       {rt::DType::bfloat16, rt::DType::int8, rt::DType::complex64, rt::DType::boolean}) {
    Options o = small({Test::all_reduce, Test::all_gather, Test::reduce_scatter, Test::broadcast,
                       Test::sendrecv, Test::barrier});
    o.dtype = t;
    o.root = 2;
    std::ostringstream out;
    INFO(rt::dtype_name(t));
    CHECK(run_local_threads(o, 3, out) == 0);
    CHECK(out.str().find("FAILED") == std::string::npos);
  }
}

TEST_CASE("a step factor past size_t's range gives the smallest size only", "[bench]") {
  // s * factor above SIZE_MAX had no defined conversion back to a size.
  for (double factor : {1e300, std::numeric_limits<double>::infinity()}) {
    auto o = small({Test::all_reduce});
    o.factor = factor;
    std::ostringstream out;
    CHECK(run_local_threads(o, 2, out) == 0);
    int rows = 0;
    for (const auto& l : lines(out.str()))
      if (!l.empty() && l[0] != '#') {
        CHECK(fields(l)[0] == "8");
        ++rows;
      }
    CHECK(rows == 1);
  }
}

TEST_CASE("sizes take K, M and G suffixes and bad ones are refused", "[bench]") {
  CHECK(parse_size("64K", "-b") == 65536);
  CHECK(parse_size("128M", "-e") == 128u << 20);
  CHECK(parse_size("1G", "-e") == size_t{1} << 30);
  CHECK(parse_size("8", "-b") == 8);
  try {
    parse_size("12X", "-b/--minbytes");
    FAIL("accepted");
  } catch (const rt::Error& e) {
    CHECK(std::string(e.what()) ==
          "-b/--minbytes: '12X' is not a size; use bytes with an optional K, M or G");
  }
  CHECK_THROWS(parse_size("", "-b"));
  CHECK_THROWS(parse_size("K", "-b"));
}

TEST_CASE("loopback endpoints are distinct ports below the ephemeral range", "[bench]") {
  // An outgoing connection's local port comes from the ephemeral range
  // (Linux 32768-60999); a listener's port picked there can be taken before
  // the rank binds it, as CI once saw.
  std::set<uint16_t> seen;
  auto eps = loopback_endpoints(4, 3);
  REQUIRE(eps.size() == 4);
  for (const auto& rank : eps) {
    REQUIRE(rank.size() == 3);
    for (const auto& e : rank) {
      CHECK(e.host == "127.0.0.1");
      CHECK(e.port >= 20000);
      CHECK(e.port < 32000);
      seen.insert(e.port);
    }
  }
  CHECK(seen.size() == 12);
}
