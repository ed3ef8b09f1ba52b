// Reading and writing the example's checkpoint (see checkpoint.hpp).
#include "checkpoint.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace linreg {

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw std::runtime_error(path + ": cannot write the checkpoint");
  std::fprintf(f, "linreg-checkpoint 1\nstep %ld\nseed %llu\nweights", c.step, c.seed);
  for (double w : c.weights) std::fprintf(f, " %a", w);
  std::fprintf(f, "\n");
  bool ok = std::fclose(f) == 0;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error(path + ": cannot write the checkpoint");
}

Checkpoint read_checkpoint(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": no such checkpoint");
  std::string magic, version, key;
  Checkpoint c;
  in >> magic >> version >> key >> c.step;
  if (magic != "linreg-checkpoint" || version != "1" || key != "step")
    throw std::runtime_error(path + ": not a linreg checkpoint");
  in >> key >> c.seed >> key;
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    double w = std::strtod(word.c_str(), &end);
    if (*end) throw std::runtime_error(path + ": bad weight '" + word + "'");
    c.weights.push_back(w);
  }
  if (c.weights.empty() || c.step < 0) throw std::runtime_error(path + ": truncated checkpoint");
  return c;
}

}  // namespace linreg
