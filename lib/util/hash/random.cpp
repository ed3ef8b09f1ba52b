// random_bytes, random_hex (distkit/util/random.hpp).
#include "distkit/util/random.hpp"

#include <unistd.h>
#if defined(__APPLE__)
#include <sys/random.h>  // getentropy
#endif

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace distkit {

void random_bytes(unsigned char* out, std::size_t n) {
  while (n > 0) {
    std::size_t chunk = std::min<std::size_t>(n, 256);  // getentropy's limit
    if (getentropy(out, chunk) != 0) throw std::runtime_error("getentropy failed");
    out += chunk;
    n -= chunk;
  }
}

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  random_bytes(raw.data(), raw.size());
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes);
  for (unsigned char c : raw) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

}  // namespace distkit
