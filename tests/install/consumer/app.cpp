// A user program of the installed distkit runtime, built out of tree by
// tests/integration/install_consumer.sh (once with find_package(distkit),
// once with pkg-config) and run as 4 ranks under the installed distlaunch.
// Each rank all-reduces through both public APIs and checks the closed-form
// sums; it prints one "rank R of N: ok" line, or the first mismatch and
// exits 1. Only installed headers are used.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

#include <distkit/distkit.h>
#include <distkit/runtime/group.hpp>

namespace {

// C++ API: element i of rank r is (r + 1) * (i + 1); the sum over n ranks is
// (i + 1) * n * (n + 1) / 2. count spans several ring chunks.
bool check_cpp(distkit::rt::Group& g, size_t count) {
  const int64_t r = g.rank(), n = g.size();
  std::vector<int64_t> data(count);
  for (size_t i = 0; i < count; ++i) data[i] = (r + 1) * int64_t(i + 1);
  g.all_reduce(data.data(), count, distkit::rt::DType::int64, distkit::rt::ReduceOp::sum);
  for (size_t i = 0; i < count; ++i) {
    const int64_t want = int64_t(i + 1) * n * (n + 1) / 2;
    if (data[i] != want) {
      std::printf("rank %lld: C++ all_reduce element %zu is %lld, expected %lld\n", (long long)r, i,
                  (long long)data[i], (long long)want);
      return false;
    }
  }
  return true;
}

// C API on its own handle: max over ranks of float(rank) is n - 1.
bool check_c() {
  distkit_group* g = nullptr;
  if (distkit_init_from_env(&g) != DISTKIT_OK) {
    std::printf("C init failed: %s\n", distkit_last_error());
    return false;
  }
  const int n = distkit_size(g);
  std::vector<float> in(7, float(distkit_rank(g))), out(7, -1.0f);
  bool ok = distkit_all_reduce(g, in.data(), out.data(), in.size(), DISTKIT_FLOAT32, DISTKIT_MAX) ==
            DISTKIT_OK;
  if (!ok) std::printf("C all_reduce failed: %s\n", distkit_last_error());
  for (float v : out) ok = ok && v == float(n - 1);
  if (ok && out[0] != float(n - 1)) std::printf("C all_reduce gave %g\n", double(out[0]));
  distkit_finalize(g);
  return ok;
}

}  // namespace

int main() {
  try {
    auto g = distkit::rt::Group::from_environment();
    bool ok = check_cpp(*g, 1) && check_cpp(*g, 300001);
    g.reset();
    ok = ok && check_c();
    if (!ok) return 1;
    std::printf("ok\n");
    return 0;
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
}
