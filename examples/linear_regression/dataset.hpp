// The generated dataset of the linear-regression example: y = w*.x + b* +
// noise, with x uniform in [-1, 1). Every value comes from a counter-based
// generator (splitmix64 of seed, row, column), so any rank can generate any
// row on its own, bit for bit the same on every machine and for any world
// size; no std:: distribution (their output is implementation-defined).
#pragma once

#include <cstdint>
#include <vector>

namespace linreg {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1): 53 random bits, exactly representable.
inline double uniform(uint64_t seed, uint64_t row, uint64_t col) {
  uint64_t r = splitmix64(splitmix64(seed ^ 0x5eedULL) + row * 0x100000001b3ULL + col);
  return static_cast<double>(r >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

struct Dataset {
  int features = 4;
  std::vector<double> x;  // rows * features
  std::vector<double> y;
};

// The true model: weights and bias drawn from the seed (row "-1").
inline double true_weight(uint64_t seed, int j) {
  return 2.0 * uniform(seed, ~0ULL, uint64_t(j));
}

// Rows [begin, end), each label with noise of amplitude 0.1;
// `extra` (nondeterministic mode only) is added to every label.
inline Dataset generate(uint64_t seed, int features, long begin, long end, double extra) {
  Dataset d;
  d.features = features;
  for (long i = begin; i < end; ++i) {
    double y = true_weight(seed, features);  // bias
    for (int j = 0; j < features; ++j) {
      double v = uniform(seed, uint64_t(i), uint64_t(j));
      d.x.push_back(v);
      y += true_weight(seed, j) * v;
    }
    y += 0.1 * uniform(seed, uint64_t(i), uint64_t(features)) +
         extra * uniform(~seed, uint64_t(i), 0);
    d.y.push_back(y);
  }
  return d;
}

}  // namespace linreg
