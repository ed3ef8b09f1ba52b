// Random bytes from the OS (getentropy: Linux glibc 2.25+, macOS 10.12+),
// for the job secret, handshake nonces, job ids and output boundaries: the
// one source of randomness in distkit. In distkit::hash, with no
// dependencies, so the runtime library links it too.
#pragma once

#include <cstddef>
#include <string>

namespace distkit {

// Fills `out` with `n` random bytes; throws std::runtime_error when the OS
// gives none (never expected).
void random_bytes(unsigned char* out, std::size_t n);

// `bytes` random bytes as lowercase hex (2 * bytes characters).
std::string random_hex(std::size_t bytes);

}  // namespace distkit
