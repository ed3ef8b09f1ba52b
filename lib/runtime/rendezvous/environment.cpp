// Config from the environment a launcher gives a rank: the MLX ring variables
// (MLX_RANK, MLX_HOSTFILE) so programs also run under mlx.launch, plus
// distkit's own (DISTKIT_SECRET_FILE written by distlaunch's host agent,
// DISTKIT_INSECURE, timeouts and tuning knobs).
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "distkit/runtime/config.hpp"

namespace distkit::rt {

namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

long long env_number(const char* name, long long def, long long lo, long long hi) {
  const char* v = env(name);
  if (!v) return def;
  char* end = nullptr;
  long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < lo || n > hi)
    throw Error(ErrorCode::config, std::string(name) + ": '" + v + "' is not a number in " +
                                       std::to_string(lo) + ".." + std::to_string(hi) +
                                       "; fix or unset it");
  return n;
}

std::string read_file(const std::string& path, const char* var) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::config, std::string(var) + ": cannot read " + path +
                                       "; the launcher should have created it");
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

std::string decode_secret_hex(std::string_view text, const std::string& origin) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";  // isspace's, in the C locale
  text.remove_prefix(std::min(text.size(), text.find_first_not_of(kSpace)));
  text = text.substr(0, text.find_last_not_of(kSpace) + 1);
  std::string out;
  bool ok = text.size() >= 32 && text.size() % 2 == 0 && text.size() <= 1024;
  for (size_t i = 0; ok && i < text.size(); i += 2) {
    unsigned char byte = 0;
    auto [end, ec] = std::from_chars(&text[i], &text[i] + 2, byte, 16);
    ok = ec == std::errc() && end == &text[i] + 2;
    out += static_cast<char>(byte);
  }
  if (!ok)
    throw Error(ErrorCode::config, origin +
                                       ": not a hex secret of 16 to 512 bytes; the launcher "
                                       "writes one line of hex digits");
  return out;
}

Config config_from_environment() {
  Config c;
  const char* hostfile = env("MLX_HOSTFILE");
  if (!hostfile)
    throw Error(ErrorCode::config,
                "MLX_HOSTFILE: not set; start the program with distlaunch (or mlx.launch "
                "--backend ring), or build a Config by hand");
  c.endpoints = parse_ring_hostfile(read_file(hostfile, "MLX_HOSTFILE"), hostfile);
  c.rank = static_cast<int>(env_number("MLX_RANK", -1, 0, c.size() - 1));
  if (c.rank < 0)
    throw Error(ErrorCode::config, "MLX_RANK: not set; the launcher sets it for every rank");
  if (const char* secret = env("DISTKIT_SECRET_FILE")) {
    c.secret = decode_secret_hex(read_file(secret, "DISTKIT_SECRET_FILE"), secret);
  } else if (env_number("DISTKIT_INSECURE", 0, 0, 1) == 1) {
    c.insecure = true;
  } else {
    throw Error(ErrorCode::config,
                "DISTKIT_SECRET_FILE: not set, so peers cannot be authenticated; run under "
                "distlaunch, or set DISTKIT_INSECURE=1 on a trusted network");
  }
  c.timeout = std::chrono::milliseconds(env_number("DISTKIT_TIMEOUT_MS", 30000, 1, 86400000));
  c.connect_timeout =
      std::chrono::milliseconds(env_number("DISTKIT_CONNECT_TIMEOUT_MS", 60000, 1, 86400000));
  c.chunk_bytes = static_cast<size_t>(
      env_number("DISTKIT_CHUNK_BYTES", static_cast<long long>(c.chunk_bytes), 4096, 1 << 30));
  c.small_bytes = static_cast<size_t>(
      env_number("DISTKIT_SMALL_BYTES", static_cast<long long>(c.small_bytes), 0, 1 << 30));
  c.max_stripes = static_cast<int>(env_number("DISTKIT_MAX_STRIPES", c.max_stripes, 1, 64));
  c.spin = std::chrono::microseconds(env_number("DISTKIT_SPIN_US", c.spin.count(), 0, 10000));
  if (const char* beat = env("DISTKIT_HEARTBEAT_FILE")) c.heartbeat_file = beat;
  return c;
}

}  // namespace distkit::rt
