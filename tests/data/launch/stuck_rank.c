/* A rank for the stall tests (tests/integration/launch_stall*.sh), built by
 * them with cc. Modes:
 *   blocked          waits forever in distkit_test_blocked_here (no CPU, no I/O)
 *   spinning         loops forever in distkit_test_spinning_here (CPU, no I/O)
 *   reading FILE S   computes for S seconds, reading FILE between rounds,
 *                    printing nothing (CPU and I/O: progress) */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void distkit_test_blocked_here(void) {
  for (;;) pause();
}

__attribute__((noinline)) void distkit_test_spinning_here(void) {
  volatile unsigned long x = 0;
  for (;;) x++;
}

static int reading(const char* path, double seconds) {
  char buf[65536];
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 2;
  double end = now() + seconds;
  volatile unsigned long x = 0;
  while (now() < end) {
    double round_end = now() + 0.2;
    while (now() < round_end) x++;
    if (pread(fd, buf, sizeof buf, 0) < 0) return 3;
  }
  close(fd);
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "blocked") == 0) distkit_test_blocked_here();
  if (argc == 2 && strcmp(argv[1], "spinning") == 0) distkit_test_spinning_here();
  if (argc == 4 && strcmp(argv[1], "reading") == 0) return reading(argv[2], atof(argv[3]));
  return 64;
}
