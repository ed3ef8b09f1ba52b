// HMAC-SHA256 (RFC 2104) over distkit::hash's SHA-256, for the connection
// handshake. Constant-time comparison for MACs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace distkit::rt {

using Mac = std::array<uint8_t, 32>;

Mac hmac_sha256(std::string_view key, std::string_view message);
bool mac_equal(const Mac& a, const Mac& b) noexcept;

}  // namespace distkit::rt
