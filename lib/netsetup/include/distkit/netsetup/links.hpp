// The cables network setup configures: an endpoint is (host, interface),
// a cable joins two endpoints on different hosts. They come from the
// Thunderbolt topology (macOS) or from a `--links` file that declares them
// by hand for hosts without Thunderbolt discovery (Linux, thunderbolt-net or
// any named interface).
//
// Links file format (documented in man/distconfig.1.md):
//   # comment
//   hostA:ifA hostB:ifB      one cable per line
// Host names are the ssh names of --hosts; the interface is the part after
// the last ':'. Blank lines and '#' comments are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace distkit::netsetup {

struct Endpoint {
  std::string host;
  std::string iface;
  bool operator==(const Endpoint&) const = default;
  // clang-tidy 14 reads the literal 0 of the defaulted <=>'s synthesized
  // comparisons as a null pointer constant (a false positive).
  auto operator<=>(const Endpoint&) const = default;  // NOLINT(modernize-use-nullptr)
  std::string str() const { return host + ":" + iface; }
};

struct Cable {
  Endpoint a, b;
};

// Parses a links file. Throws distkit::UsageError with subject
// "<source>:<line>" and a one-line problem/remedy for: a line without
// exactly two endpoints, an endpoint without ':', an empty or invalid host
// or interface name, a cable from a host to itself, an endpoint used twice.
// An empty file (no cables) is an error too.
std::vector<Cable> parse_links(std::string_view text, std::string_view source);

// Every cable's hosts must be in `hosts`; throws UsageError (subject
// `source`) naming the first unknown host otherwise.
void check_link_hosts(const std::vector<Cable>& cables, const std::vector<std::string>& hosts,
                      std::string_view source);

// True for a name usable as an interface: 1..15 characters of
// [A-Za-z0-9_.-] (Linux IFNAMSIZ; macOS names are shorter).
bool valid_iface_name(std::string_view name);

}  // namespace distkit::netsetup
