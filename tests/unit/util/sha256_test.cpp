#include "distkit/util/sha256.hpp"

#include <string>

#include "catch.hpp"

TEST_CASE("sha256 matches the FIPS 180-4 test vectors") {
  CHECK(distkit::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(distkit::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(distkit::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(distkit::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 gives the same digest however the input is split") {
  std::string data(1000, 'x');
  for (size_t i = 0; i < data.size(); ++i) data[i] = char(i * 7);
  distkit::Sha256 s;
  for (size_t off = 0; off < data.size(); off += 37)
    s.update(data.data() + off, std::min<size_t>(37, data.size() - off));
  auto d = s.finish();
  std::string hex;
  for (auto b : d) {
    const char* h = "0123456789abcdef";
    hex += h[b >> 4];
    hex += h[b & 15];
  }
  CHECK(hex == distkit::sha256_hex(data));
}
