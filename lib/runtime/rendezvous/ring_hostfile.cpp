// A tiny parser for the one JSON shape the MLX ring backend hands a rank:
// a list of lists of "host:port" strings. Written by hand (the runtime links
// no JSON library) and fuzzed (tests/fuzz/runtime_hostfile_fuzz.cpp): input
// is bounded, nesting is fixed at two levels, every error names the offset.
#include <cctype>
#include <string>

#include "distkit/runtime/config.hpp"

namespace distkit::rt {

namespace {

constexpr size_t kMaxInput = 16 << 20;
constexpr size_t kMaxRanks = 65536;
constexpr size_t kMaxEntries = 256;
// A DNS name is at most 253 characters. The host is bounded separately from
// the quoted string (300) so that any accepted host, bracketed and with a
// port, still fits when written back out (the fuzzer's round trip).
constexpr size_t kMaxHost = 255;

class Parser {
 public:
  Parser(std::string_view s, const std::string& origin) : s_(s), origin_(origin) {}

  std::vector<std::vector<Endpoint>> parse() {
    std::vector<std::vector<Endpoint>> out;
    expect('[');
    if (!peek(']')) {
      do {
        if (out.size() >= kMaxRanks) fail("more than 65536 ranks");
        out.push_back(rank_list());
      } while (accept(','));
    }
    expect(']');
    skip_ws();
    if (i_ != s_.size()) fail("trailing characters");
    if (out.empty()) fail("no ranks");
    return out;
  }

 private:
  std::vector<Endpoint> rank_list() {
    std::vector<Endpoint> eps;
    expect('[');
    if (!peek(']')) {
      do {
        if (eps.size() >= kMaxEntries) fail("more than 256 addresses for one rank");
        eps.push_back(endpoint(string()));
      } while (accept(','));
    }
    expect(']');
    if (eps.empty()) fail("a rank with no addresses");
    return eps;
  }

  Endpoint endpoint(const std::string& text) {
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
      fail("\"" + text + "\" is not host:port");
    std::string host = text.substr(0, colon), port = text.substr(colon + 1);
    if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    if (host.empty() || port.size() > 5) fail("\"" + text + "\" is not host:port");
    if (host.size() > kMaxHost) fail("host longer than 255 characters");
    unsigned long p = 0;
    for (char c : port) {
      if (c < '0' || c > '9') fail("\"" + text + "\" has a bad port");
      p = p * 10 + static_cast<unsigned long>(c - '0');
    }
    if (p == 0 || p > 65535) fail("\"" + text + "\" has a port outside 1-65535");
    return Endpoint{host, static_cast<uint16_t>(p)};
  }

  std::string string() {
    expect('"');
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c == '\\' || static_cast<unsigned char>(c) < 0x20) fail("escapes are not allowed here");
      if (out.size() > 300) fail("address too long");
      out += c;
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }

  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool peek(char c) {
    skip_ws();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool accept(char c) {
    if (!peek(c)) return false;
    ++i_;
    return true;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }
  [[noreturn]] void fail(const std::string& what) {
    throw Error(ErrorCode::config, origin_ + ": " + what + " at offset " + std::to_string(i_) +
                                       "; expected [[\"ip:port\", ...], ...] (one list per rank)");
  }

  std::string_view s_;
  const std::string& origin_;
  size_t i_ = 0;
};

}  // namespace

std::vector<std::vector<Endpoint>> parse_ring_hostfile(std::string_view json,
                                                       const std::string& origin) {
  if (json.size() > kMaxInput)
    throw Error(ErrorCode::config, origin + ": larger than 16 MiB; not a ring hostfile");
  return Parser(json, origin).parse();
}

}  // namespace distkit::rt
