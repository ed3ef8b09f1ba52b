// A real MLX program for distkit's tests and benchmarks: MLX's own C++
// library (built from an MLX source archive by tests/mlx/build_mlx.sh, CPU
// backend) over MLX's ring backend, launched by distlaunch exactly as
// mlx.launch would launch it (MLX_RANK, MLX_HOSTFILE). It is not linked
// with anything of distkit: what it checks is that distlaunch's rank
// environment and supervision work for MLX itself.
//
//   mlx_collectives              check all_sum, all_gather and send/recv
//                                results exactly; one line per rank
//   mlx_collectives --loop SEC   all_sum 4 MiB over and over for SEC seconds
//                                (for killing a rank mid-collective)
//   mlx_collectives --bench [-b MIN] [-e MAX] [-f FACTOR] [-n ITERS] [-w WARMUP]
//                                time all_sum (float32), rank 0 prints rows in
//                                nccl-tests columns (busbw = algbw * 2(n-1)/n)
//
// Exit status: 0 every result exact, 1 a wrong result or an MLX error (a line
// saying which), 2 bad arguments.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "mlx/mlx.h"

namespace mx = mlx::core;
namespace dist = mlx::core::distributed;

namespace {

int g_rank = -1;

[[noreturn]] void mismatch(const std::string& what, size_t index, double got, double want) {
  std::printf("mlx_collectives: rank %d: %s: element %zu is %.17g, expected %.17g\n", g_rank,
              what.c_str(), index, got, want);
  std::fflush(stdout);
  std::exit(1);
}

// Compares every element of y (evaluated) with want(i), exactly.
template <typename T, typename F>
void expect_all(const std::string& what, mx::array y, size_t n, F want) {
  mx::eval(y);
  if (static_cast<size_t>(y.size()) != n) mismatch(what + " (size)", 0, y.size(), n);
  const T* p = y.data<T>();
  for (size_t i = 0; i < n; ++i)
    if (p[i] != static_cast<T>(want(i))) mismatch(what, i, p[i], want(i));
}

template <typename T, typename F>
mx::array make(size_t n, mx::Dtype dtype, F value) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(value(i));
  return mx::array(v.begin(), {static_cast<int>(n)}, dtype);
}

std::string label(const char* op, const char* type, size_t n) {
  return std::string(op) + " " + type + " n=" + std::to_string(n);
}

// Sizes below the ring size, odd ones, and ones past MLX's 256 KiB split.
void check_all_sum(const dist::Group& g) {
  const int64_t r = g.rank(), n = g.size();
  for (size_t count : {size_t{1}, size_t{3}, size_t{1001}, size_t{65543}, size_t{1048579}}) {
    // int32: rank r gives r * 1000003 + i; the sum is exact in any order.
    auto xi = make<int32_t>(count, mx::int32, [&](size_t i) { return r * 1000003 + int64_t(i); });
    expect_all<int32_t>(label("all_sum", "int32", count), dist::all_sum(xi, g), count,
                        [&](size_t i) { return n * (n - 1) / 2 * 1000003 + n * int64_t(i); });
    // float32: small integers, so every partial sum is exact too.
    auto xf = make<float>(count, mx::float32, [&](size_t i) { return (r + 1) * (i % 1000 + 1); });
    expect_all<float>(label("all_sum", "float32", count), dist::all_sum(xf, g), count,
                      [&](size_t i) { return double(n * (n + 1) / 2) * double(i % 1000 + 1); });
  }
}

// Rank r gives k elements r*k .. r*k+k-1: the gathered array is 0 .. n*k-1.
void check_all_gather(const dist::Group& g) {
  const int64_t r = g.rank(), n = g.size();
  for (size_t k : {size_t{1}, size_t{1000}, size_t{300007}}) {
    auto xi = make<int32_t>(k, mx::int32, [&](size_t i) { return r * int64_t(k) + int64_t(i); });
    expect_all<int32_t>(label("all_gather", "int32", k), dist::all_gather(xi, g), n * k,
                        [](size_t i) { return double(i); });
    auto xf = make<float>(k, mx::float32, [&](size_t i) { return r * int64_t(k) + int64_t(i); });
    expect_all<float>(label("all_gather", "float32", k), dist::all_gather(xf, g), n * k,
                      [](size_t i) { return double(i); });
  }
}

// The ring backend sends only to its neighbours: a token goes round the ring
// to the right, then to the left (both sockets of each rank), each hop
// carrying its sender's pattern.
void check_send_recv(const dist::Group& g) {
  const int r = g.rank(), n = g.size();
  auto pattern = [](int sender, size_t i) { return int64_t(sender) * 7 + int64_t(i % 100000); };
  for (int dir : {1, -1}) {
    const int to = (r + dir + n) % n, from = (r - dir + n) % n;
    for (size_t count : {size_t{5}, size_t{1048577}}) {
      auto mine = make<int32_t>(count, mx::int32, [&](size_t i) { return pattern(r, i); });
      auto pass_on = [&] { mx::eval(dist::send(mine, to, g)); };
      auto take = [&] {
        auto what = std::string(dir > 0 ? "recv from the left" : "recv from the right") +
                    " n=" + std::to_string(count);
        expect_all<int32_t>(what, dist::recv({static_cast<int>(count)}, mx::int32, from, g), count,
                            [&](size_t i) { return double(pattern(from, i)); });
      };
      if (r == 0) {
        pass_on();
        take();
      } else {
        take();
        pass_on();
      }
    }
  }
}

void loop(const dist::Group& g, double seconds) {
  auto x = mx::full({1 << 20}, 1.0f, mx::float32);  // 4 MiB
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  bool said = false;
  while (std::chrono::steady_clock::now() < end) {
    mx::eval(dist::all_sum(x, g));
    if (!said) {
      std::printf("mlx_collectives: rank %d looping\n", g.rank());
      std::fflush(stdout);
      said = true;
    }
  }
}

struct BenchOptions {
  size_t min_bytes = 65536, max_bytes = 64 << 20;
  size_t factor = 2;
  int iters = 20, warmup = 5;
};

// all_sum timed like distbench: warm-up, a barrier (an all_sum of one
// element), the timed loop; the time is the slowest rank's mean.
int bench(const dist::Group& g, const BenchOptions& o) {
  const int n = g.size();
  const double bus = 2.0 * (n - 1) / n;
  if (g.rank() == 0) {
    std::printf("# mlx_collectives --bench: MLX %s ring backend, all_sum, %d ranks\n",
                mx::version(), n);
    std::printf("# minBytes %zu maxBytes %zu step: %zu(factor) warmup iters: %d iters: %d\n",
                o.min_bytes, o.max_bytes, o.factor, o.warmup, o.iters);
    std::printf("#%11s  %12s  %8s  %6s  %5s  %8s  %7s  %7s  %6s\n", "size", "count", "type",
                "redop", "root", "time", "algbw", "busbw", "#wrong");
    std::printf("#%11s  %12s  %8s  %6s  %5s  %8s  %7s  %7s  %6s\n", "(B)", "(elements)", "", "", "",
                "(us)", "(GB/s)", "(GB/s)", "");
  }
  int64_t wrong_total = 0;
  for (size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= o.factor) {
    const int count = static_cast<int>(bytes / sizeof(float));
    auto x = mx::full({count}, float(g.rank() + 1), mx::float32);
    mx::eval(x);
    auto y = dist::all_sum(x, g);
    mx::eval(y);
    const float want = float(n) * float(n + 1) / 2;
    int64_t wrong = 0;
    for (int i = 0; i < count; ++i) wrong += y.data<float>()[i] != want;
    for (int i = 0; i < o.warmup; ++i) mx::eval(dist::all_sum(x, g));
    mx::eval(dist::all_sum(mx::array(1.0f), g));
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < o.iters; ++i) mx::eval(dist::all_sum(x, g));
    double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        std::max(o.iters, 1);
    auto slowest = dist::all_max(mx::array(float(us)), g);
    auto wrongs = dist::all_sum(mx::array(int32_t(wrong)), g);
    mx::eval(slowest, wrongs);
    us = slowest.item<float>();
    wrong = wrongs.item<int32_t>();
    wrong_total += wrong;
    double algbw = us > 0 ? double(count) * sizeof(float) / us / 1e3 : 0;
    if (g.rank() == 0)
      std::printf(" %11zu  %12d  %8s  %6s  %5d  %8.2f  %7.2f  %7.2f  %6lld\n",
                  size_t(count) * sizeof(float), count, "float32", "sum", -1, us, algbw,
                  algbw * bus, static_cast<long long>(wrong));
    std::fflush(stdout);
    if (o.factor < 2) break;
  }
  if (g.rank() == 0)
    std::printf("# Out of bounds values : %lld %s\n", static_cast<long long>(wrong_total),
                wrong_total ? "FAILED" : "OK");
  return wrong_total ? 1 : 0;
}

size_t parse_size(const char* s) {
  char* end = nullptr;
  double v = std::strtod(s, &end);
  if (end == s) return 0;
  switch (*end) {
    case 'K':
      return size_t(v * 1024);
    case 'M':
      return size_t(v * 1024 * 1024);
    case 'G':
      return size_t(v * 1024 * 1024 * 1024);
    default:
      return size_t(v);
  }
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "mlx_collectives: error: %s\nusage: mlx_collectives [--loop SECONDS | --bench [-b "
               "MIN] [-e MAX] [-f FACTOR] [-n ITERS] [-w WARMUP]]\n",
               why.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "check";
  double loop_seconds = 0;
  BenchOptions bo;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(a + " needs a value");
      return argv[++i];
    };
    if (a == "--loop") {
      mode = "loop";
      loop_seconds = std::atof(value());
    } else if (a == "--bench") {
      mode = "bench";
    } else if (a == "-b") {
      bo.min_bytes = parse_size(value());
    } else if (a == "-e") {
      bo.max_bytes = parse_size(value());
    } else if (a == "-f") {
      bo.factor = static_cast<size_t>(std::atoi(value()));
    } else if (a == "-n") {
      bo.iters = std::atoi(value());
    } else if (a == "-w") {
      bo.warmup = std::atoi(value());
    } else {
      usage("unknown argument '" + a + "'");
    }
  }
  if (bo.min_bytes < sizeof(float) || bo.max_bytes < bo.min_bytes) usage("bad -b/-e sizes");
  try {
    auto g = dist::init(/*strict=*/true, "ring");
    g_rank = g.rank();
    if (mode == "loop") {
      loop(g, loop_seconds);
      return 0;
    }
    if (mode == "bench") return bench(g, bo);
    check_all_sum(g);
    check_all_gather(g);
    check_send_recv(g);
    std::printf("mlx_collectives: rank %d of %d: all_sum, all_gather, send/recv exact\n", g.rank(),
                g.size());
    return 0;
  } catch (const std::exception& e) {
    std::printf("mlx_collectives: error: rank %d: %s\n", g_rank, e.what());
    return 1;
  }
}
