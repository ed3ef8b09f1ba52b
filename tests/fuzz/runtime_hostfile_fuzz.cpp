// Fuzzes the runtime's MLX_HOSTFILE reader (parse_ring_hostfile): a list of
// lists of "host:port" strings, written by hand without a JSON library.
// Checked besides "no crash, no sanitizer report": input is accepted or
// refused with a one-line Error (nothing else escapes); what is accepted
// has 1..256 endpoints per rank, a non-empty host and a port in 1..65535,
// and survives being written back out and parsed again unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/runtime/config.hpp"
#include "fuzz_check.hpp"

using namespace distkit::rt;
using distkit::fuzz::require;

namespace {

std::string render(const std::vector<std::vector<Endpoint>>& ranks) {
  std::string out = "[";
  for (const auto& eps : ranks) {
    out += out.size() > 1 ? ",[" : "[";
    for (size_t i = 0; i < eps.size(); ++i) {
      const std::string& h = eps[i].host;  // brackets as the reader strips them
      bool wrap = h.find(':') != std::string::npos || (h.front() == '[' && h.back() == ']');
      out += (i ? ",\"" : "\"") + (wrap ? "[" + h + "]" : h) + ":" + std::to_string(eps[i].port) +
             "\"";
    }
    out += "]";
  }
  return out + "]";
}

bool same(const std::vector<std::vector<Endpoint>>& a,
          const std::vector<std::vector<Endpoint>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t r = 0; r < a.size(); ++r) {
    if (a[r].size() != b[r].size()) return false;
    for (size_t i = 0; i < a[r].size(); ++i)
      if (a[r][i].host != b[r][i].host || a[r][i].port != b[r][i].port) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::vector<Endpoint>> ranks;
  try {
    ranks = parse_ring_hostfile(text, "fuzz");
  } catch (const Error& e) {
    require(std::string_view(e.what()).find('\n') == std::string_view::npos);
    return 0;
  }
  require(!ranks.empty());
  for (const auto& eps : ranks) {
    require(!eps.empty() && eps.size() <= 256);
    for (const auto& ep : eps) require(!ep.host.empty() && ep.port != 0);
  }
  require(same(parse_ring_hostfile(render(ranks), "again"), ranks));
  return 0;
}
