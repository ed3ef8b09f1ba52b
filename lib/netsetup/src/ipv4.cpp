// See ipv4.hpp.
#include "distkit/netsetup/ipv4.hpp"

#include "distkit/util/error.hpp"

namespace distkit::netsetup {

std::optional<uint32_t> parse_ipv4(std::string_view t) {
  uint32_t out = 0;
  int octets = 0;
  size_t i = 0;
  while (octets < 4) {
    int v = 0, digits = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9' && digits < 4) {
      v = v * 10 + (t[i] - '0');
      ++i;
      ++digits;
    }
    if (digits == 0 || digits > 3 || v > 255) return std::nullopt;
    out = (out << 8) | uint32_t(v);
    ++octets;
    if (octets < 4) {
      if (i >= t.size() || t[i] != '.') return std::nullopt;
      ++i;
    }
  }
  if (i != t.size()) return std::nullopt;
  return out;
}

std::string format_ipv4(uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 255) + "." +
         std::to_string((a >> 8) & 255) + "." + std::to_string(a & 255);
}

std::string Cidr::str() const {
  return format_ipv4(address) + "/" + std::to_string(prefix);
}

std::optional<Cidr> parse_cidr(std::string_view t) {
  size_t slash = t.find('/');
  auto a = parse_ipv4(t.substr(0, slash));
  if (!a) return std::nullopt;
  Cidr c{*a, 32};
  if (slash == std::string_view::npos) return c;
  std::string_view p = t.substr(slash + 1);
  if (p.empty() || p.size() > 2) return std::nullopt;
  int v = 0;
  for (char ch : p) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  if (v > 32) return std::nullopt;
  c.prefix = v;
  return c;
}

namespace {

std::optional<int> prefix_of_mask(uint32_t m) {
  int n = 0;
  while (n < 32 && (m & (uint32_t(1) << (31 - n)))) ++n;
  uint32_t want = n == 0 ? 0 : ~uint32_t(0) << (32 - n);
  if (m != want) return std::nullopt;
  return n;
}

}  // namespace

std::optional<int> netmask_prefix(std::string_view m) {
  if (m.size() == 10 && m[0] == '0' && (m[1] == 'x' || m[1] == 'X')) {
    uint32_t v = 0;
    for (char c : m.substr(2)) {
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return std::nullopt;
      v = (v << 4) | uint32_t(d);
    }
    return prefix_of_mask(v);
  }
  auto a = parse_ipv4(m);
  if (!a) return std::nullopt;
  return prefix_of_mask(*a);
}

Cidr parse_subnet(std::string_view text, std::string_view flag) {
  const std::string t(text), f(flag);
  auto c = parse_cidr(text);
  if (!c || t.find('/') == std::string::npos)
    throw UsageError(f, "\"" + t + "\" is not an IPv4 network",
                     "write it as a.b.c.d/n, e.g. 10.213.0.0/16");
  if (c->prefix < 8 || c->prefix > 30)
    throw UsageError(f, "/" + std::to_string(c->prefix) + " is outside /8../30",
                     "a /30 per cable needs a network of /30 or larger (and at most /8)");
  if (c->address != c->network())
    throw UsageError(
        f, "\"" + t + "\" has host bits set",
        "did you mean " + format_ipv4(c->network()) + "/" + std::to_string(c->prefix) + "?");
  return *c;
}

}  // namespace distkit::netsetup
