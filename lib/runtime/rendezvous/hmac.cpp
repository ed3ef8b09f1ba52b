// HMAC-SHA256 (see hmac.hpp).
#include "rendezvous/hmac.hpp"

#include "distkit/util/sha256.hpp"

namespace distkit::rt {

Mac hmac_sha256(std::string_view key, std::string_view message) {
  std::array<uint8_t, 64> k{};
  if (key.size() > k.size()) {
    Sha256 h;
    h.update(key);
    auto d = h.finish();
    std::copy(d.begin(), d.end(), k.begin());
  } else {
    std::copy(key.begin(), key.end(), k.begin());
  }
  std::array<uint8_t, 64> ipad, opad;
  for (size_t i = 0; i < 64; ++i) {
    ipad[i] = static_cast<uint8_t>(k[i] ^ 0x36);
    opad[i] = static_cast<uint8_t>(k[i] ^ 0x5c);
  }
  Sha256 inner;
  inner.update(ipad.data(), ipad.size());
  inner.update(message);
  auto id = inner.finish();
  Sha256 outer;
  outer.update(opad.data(), opad.size());
  outer.update(id.data(), id.size());
  return outer.finish();
}

bool mac_equal(const Mac& a, const Mac& b) noexcept {
  uint8_t diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff = static_cast<uint8_t>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

}  // namespace distkit::rt
