// Open MPI peer for bench/allreduce_vs_peers.sh: MPI_Allreduce (float32
// sum, in place) with the same sizes and timing method as distbench.
//   allreduce_mpi MINBYTES MAXBYTES FACTOR ITERS WARMUP
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 6) {
    std::fprintf(stderr, "usage: allreduce_mpi MINBYTES MAXBYTES FACTOR ITERS WARMUP\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  size_t minb = std::strtoull(argv[1], nullptr, 10), maxb = std::strtoull(argv[2], nullptr, 10);
  size_t factor = std::strtoull(argv[3], nullptr, 10);
  int iters = std::atoi(argv[4]), warmup = std::atoi(argv[5]);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<float> buf(maxb / sizeof(float) + 1, 1.0f);
  for (size_t bytes = minb; bytes <= maxb; bytes *= factor) {
    int count = static_cast<int>(bytes / sizeof(float));
    for (int i = 0; i < warmup; ++i)
      MPI_Allreduce(MPI_IN_PLACE, buf.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i)
      MPI_Allreduce(MPI_IN_PLACE, buf.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double us = (MPI_Wtime() - t0) * 1e6 / iters;
    double algbw = static_cast<double>(bytes) / us / 1e3;
    if (rank == 0)
      std::printf("%zu %.2f %.3f %.3f\n", bytes, us, algbw, algbw * 2.0 * (size - 1) / size);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}
