// The example's checkpoint: the step reached and the model, written by rank 0
// with hexadecimal floats (%a) so a resumed run continues from exactly the
// same bits. Text, so a reader can check it.
#pragma once

#include <string>
#include <vector>

namespace linreg {

struct Checkpoint {
  long step = 0;
  unsigned long long seed = 0;
  std::vector<double> weights;  // features, then the bias
};

// Throws std::runtime_error naming the file on any failure.
void write_checkpoint(const std::string& path, const Checkpoint& c);
Checkpoint read_checkpoint(const std::string& path);

}  // namespace linreg
