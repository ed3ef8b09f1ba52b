// Gloo peer for bench/allreduce_vs_peers.sh: all-reduce (float32 sum) over
// Gloo's TCP transport with one of its algorithms, same sizes and timing
// method as distbench (barrier, warm-up, timed loop; rank 0 prints).
//   allreduce_gloo RANK SIZE ADDR STORE_DIR ALGO MINBYTES MAXBYTES FACTOR ITERS WARMUP
// ALGO: ring | ring_chunked | halving_doubling | bcube | new_ring | new_bcube
#include <gloo/allreduce.h>
#include <gloo/allreduce_bcube.h>
#include <gloo/allreduce_halving_doubling.h>
#include <gloo/allreduce_ring.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/barrier_all_to_one.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace {

using Ctx = std::shared_ptr<gloo::Context>;

std::unique_ptr<gloo::Algorithm> make_old(const std::string& algo, const Ctx& ctx, float* p,
                                          int count) {
  std::vector<float*> ptrs{p};
  if (algo == "ring") return std::make_unique<gloo::AllreduceRing<float>>(ctx, ptrs, count);
  if (algo == "ring_chunked")
    return std::make_unique<gloo::AllreduceRingChunked<float>>(ctx, ptrs, count);
  if (algo == "halving_doubling")
    return std::make_unique<gloo::AllreduceHalvingDoubling<float>>(ctx, ptrs, count);
  if (algo == "bcube") return std::make_unique<gloo::AllreduceBcube<float>>(ctx, ptrs, count);
  return nullptr;
}

void run_new(const std::string& algo, const Ctx& ctx, float* p, size_t count) {
  gloo::AllreduceOptions opts(ctx);
  opts.setAlgorithm(algo == "new_ring" ? gloo::AllreduceOptions::Algorithm::RING
                                       : gloo::AllreduceOptions::Algorithm::BCUBE);
  opts.setOutput(p, count);
  opts.setReduceFunction(
      static_cast<void (*)(void*, const void*, const void*, size_t)>(&gloo::sum<float>));
  gloo::allreduce(opts);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 11) {
    std::fprintf(stderr,
                 "usage: allreduce_gloo RANK SIZE ADDR STORE_DIR ALGO MINBYTES MAXBYTES FACTOR "
                 "ITERS WARMUP\n");
    return 2;
  }
  int rank = std::atoi(argv[1]), size = std::atoi(argv[2]);
  std::string addr = argv[3], store_dir = argv[4], algo = argv[5];
  size_t minb = std::strtoull(argv[6], nullptr, 10), maxb = std::strtoull(argv[7], nullptr, 10);
  size_t factor = std::strtoull(argv[8], nullptr, 10);
  int iters = std::atoi(argv[9]), warmup = std::atoi(argv[10]);

  gloo::transport::tcp::attr attr(addr.c_str());
  auto dev = gloo::transport::tcp::CreateDevice(attr);
  gloo::rendezvous::FileStore store(store_dir);
  auto ctx = std::make_shared<gloo::rendezvous::Context>(rank, size);
  ctx->connectFullMesh(store, dev);

  std::vector<float> buf(maxb / sizeof(float) + 1, 1.0f);
  gloo::BarrierAllToOne barrier(ctx);
  for (size_t bytes = minb; bytes <= maxb; bytes *= factor) {
    size_t count = bytes / sizeof(float);
    bool is_new = algo.rfind("new_", 0) == 0;
    auto alg = is_new ? nullptr : make_old(algo, ctx, buf.data(), static_cast<int>(count));
    if (!is_new && !alg) {
      std::fprintf(stderr, "allreduce_gloo: unknown algorithm %s\n", algo.c_str());
      return 2;
    }
    auto once = [&] { is_new ? run_new(algo, ctx, buf.data(), count) : alg->run(); };
    for (int i = 0; i < warmup; ++i) once();
    barrier.run();
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) once();
    double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
        iters;
    double algbw = static_cast<double>(bytes) / us / 1e3;
    if (rank == 0)
      std::printf("%zu %.2f %.3f %.3f\n", bytes, us, algbw, algbw * 2.0 * (size - 1) / size);
    std::fflush(stdout);
  }
  // Nobody leaves while a peer is still in its timed loop. Gloo's I/O
  // thread can still abort a rank at exit when a peer's connection closes
  // first ("Connection closed by peer"; 1 program run in ~50 here): that
  // comes after every result is printed and changes none.
  barrier.run();
  return 0;
}
