// Fuzzes distconfig's `--links` file parser (lib/netsetup). Checked besides
// "no crash, no sanitizer report": a file is accepted or refused with a
// one-line UsageError (nothing else escapes); an accepted file has at least
// one cable, no cable from a host to itself, no endpoint used twice, valid
// interface names, and parses back to the same cables when written out.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "distkit/netsetup/links.hpp"
#include "distkit/util/error.hpp"
#include "fuzz_check.hpp"

namespace ns = distkit::netsetup;
using distkit::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<ns::Cable> cables;
  try {
    cables = ns::parse_links(text, "fuzz");
  } catch (const distkit::UsageError& e) {
    require(std::string_view(e.what()).find('\n') == std::string_view::npos);
    return 0;
  }
  require(!cables.empty());
  std::set<ns::Endpoint> seen;
  std::string out;
  for (const auto& c : cables) {
    require(c.a.host != c.b.host);
    require(ns::valid_iface_name(c.a.iface) && ns::valid_iface_name(c.b.iface));
    require(seen.insert(c.a).second && seen.insert(c.b).second);
    out += c.a.str() + " " + c.b.str() + "\n";
  }
  auto again = ns::parse_links(out, "again");
  require(again.size() == cables.size());
  for (size_t i = 0; i < cables.size(); ++i)
    require(again[i].a == cables[i].a && again[i].b == cables[i].b);
  return 0;
}
