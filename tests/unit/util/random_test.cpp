// The one source of randomness (distkit/util/random.hpp).
#include <set>

#include "catch.hpp"
#include "distkit/util/random.hpp"

TEST_CASE("random_hex gives 2n lowercase hex digits, different each time", "[util][random]") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    auto h = distkit::random_hex(16);
    CHECK(h.size() == 32);
    CHECK(h.find_first_not_of("0123456789abcdef") == std::string::npos);
    seen.insert(h);
  }
  CHECK(seen.size() == 100);
  CHECK(distkit::random_hex(0).empty());
}

TEST_CASE("random_bytes fills more than getentropy's 256-byte limit", "[util][random]") {
  std::string a(1000, '\0'), b(1000, '\0');
  distkit::random_bytes(reinterpret_cast<unsigned char*>(a.data()), a.size());
  distkit::random_bytes(reinterpret_cast<unsigned char*>(b.data()), b.size());
  CHECK(a != b);
  CHECK(a.substr(900) != std::string(100, '\0'));  // the last chunk was filled too
}
