// See ipv4.hpp.
#include "distkit/netsetup/ipv4.hpp"

#include <bit>
#include <charconv>

#include "distkit/util/decimal.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::netsetup {

std::optional<uint32_t> parse_ipv4(std::string_view t) {
  auto parts = split(t, '.');
  if (parts.size() != 4) return std::nullopt;
  uint32_t out = 0;
  for (const auto& part : parts) {
    auto v = parse_digits(part, 3);
    if (!v || *v > 255) return std::nullopt;
    out = (out << 8) | uint32_t(*v);
  }
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
  auto v = parse_digits(t.substr(slash + 1), 2);
  if (!v || *v > 32) return std::nullopt;
  c.prefix = int(*v);
  return c;
}

std::optional<int> netmask_prefix(std::string_view m) {
  std::optional<uint32_t> mask;
  if (m.size() == 10 && m[0] == '0' && (m[1] == 'x' || m[1] == 'X')) {
    uint32_t v = 0;
    const char* end = m.data() + m.size();
    auto [stop, ec] = std::from_chars(m.data() + 2, end, v, 16);
    if (ec == std::errc() && stop == end) mask = v;
  } else {
    mask = parse_ipv4(m);
  }
  const int prefix = mask ? std::countl_one(*mask) : 0;
  if (!mask || Cidr{0, prefix}.mask() != *mask) return std::nullopt;  // not contiguous
  return prefix;
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
    throw UsageError(f, "\"" + t + "\" has host bits set",
                     "did you mean " + Cidr{c->network(), c->prefix}.str() + "?");
  return *c;
}

}  // namespace distkit::netsetup
