// A rank as a process, for the process-level tests: initialises from the
// environment (MLX_RANK, MLX_HOSTFILE, DISTKIT_SECRET_FILE), touches
// <dir>/ready.<rank>, then either checks a few collectives once ("check") or
// all-reduces forever ("loop") until a peer fails. Errors go to stderr as
// one line; exit 1 on a runtime error, 3 on a wrong result.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "distkit/runtime/group.hpp"

using namespace distkit::rt;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: runtime_test_rank check|loop DIR COUNT\n");
    return 2;
  }
  std::string mode = argv[1], dir = argv[2];
  size_t count = std::strtoull(argv[3], nullptr, 10);
  try {
    auto g = Group::from_environment();
    std::vector<float> v(count);
    auto round = [&] {
      for (size_t i = 0; i < count; ++i)
        v[i] = static_cast<float>((g->rank() + 1) * static_cast<int>(i % 5));
      g->all_reduce(v.data(), count, DType::float32, ReduceOp::sum);
      float k = static_cast<float>(g->size() * (g->size() + 1) / 2);
      for (size_t i = 0; i < count; ++i)
        if (v[i] != k * static_cast<float>(i % 5)) return false;
      return true;
    };
    if (!round()) return 3;
    if (FILE* f = std::fopen((dir + "/ready." + std::to_string(g->rank())).c_str(), "w"))
      std::fclose(f);
    if (mode == "check") {
      g->barrier();
      return 0;
    }
    for (;;)
      if (!round()) return 3;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
