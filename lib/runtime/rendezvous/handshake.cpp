// Connection authentication (see handshake.hpp).
#include "rendezvous/handshake.hpp"

#include <cstring>
#include "distkit/util/random.hpp"

#include "rendezvous/hmac.hpp"

namespace distkit::rt {

namespace {

constexpr size_t kHelloSize = 4 + 4 + 4 + 4 + 32;
constexpr size_t kReplySize = 4 + 32 + 32;

void put32(unsigned char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
uint32_t get32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

Mac mac_for(const std::string& key, const char* label, const unsigned char* hello,
            const unsigned char* nonce_s) {
  std::string msg(label);
  msg.append(reinterpret_cast<const char*>(hello), kHelloSize);
  msg.append(reinterpret_cast<const char*>(nonce_s), 32);
  return hmac_sha256(key, msg);
}

}  // namespace

std::string client_handshake(int fd, const std::string& key, int world, int my_rank, int peer_rank,
                             int stripe, Clock::time_point deadline) {
  unsigned char hello[kHelloSize];
  std::memcpy(hello, "DKH1", 4);
  put32(hello + 4, static_cast<uint32_t>(world));
  put32(hello + 8, static_cast<uint32_t>(my_rank));
  put32(hello + 12, static_cast<uint32_t>(stripe));
  random_bytes(hello + 16, 32);
  if (auto e = write_exact(fd, hello, sizeof hello, deadline); !e.empty()) return e;
  unsigned char reply[kReplySize];
  if (auto e = read_exact(fd, reply, sizeof reply, deadline); !e.empty())
    return e == "connection closed" ? "peer closed the connection (authentication refused?)" : e;
  if (get32(reply) != static_cast<uint32_t>(peer_rank)) return "answered by the wrong rank";
  Mac theirs;
  std::memcpy(theirs.data(), reply + 36, 32);
  if (!mac_equal(theirs, mac_for(key, "distkit-server", hello, reply + 4)))
    return "peer failed authentication (different job secret)";
  Mac mine = mac_for(key, "distkit-client", hello, reply + 4);
  if (auto e = write_exact(fd, mine.data(), mine.size(), deadline); !e.empty()) return e;
  unsigned char ok = 0;
  if (auto e = read_exact(fd, &ok, 1, deadline); !e.empty() || ok != 'K')
    return "peer refused our authentication (different job secret)";
  return {};
}

std::string server_handshake(int fd, const std::string& key, int world, int my_rank, HelloInfo& who,
                             Clock::time_point deadline) {
  unsigned char hello[kHelloSize];
  if (auto e = read_exact(fd, hello, sizeof hello, deadline); !e.empty())
    return "no valid hello (" + e + ")";
  if (std::memcmp(hello, "DKH1", 4) != 0) return "not a distkit peer (bad hello)";
  if (get32(hello + 4) != static_cast<uint32_t>(world)) return "peer is in a job of another size";
  who.rank = static_cast<int>(get32(hello + 8) & 0x7fffffff);
  who.stripe = static_cast<int>(get32(hello + 12) & 0x7fffffff);
  unsigned char reply[kReplySize];
  put32(reply, static_cast<uint32_t>(my_rank));
  random_bytes(reply + 4, 32);
  Mac mine = mac_for(key, "distkit-server", hello, reply + 4);
  std::memcpy(reply + 36, mine.data(), 32);
  if (auto e = write_exact(fd, reply, sizeof reply, deadline); !e.empty()) return e;
  Mac theirs;
  if (auto e = read_exact(fd, theirs.data(), theirs.size(), deadline); !e.empty())
    return "no authentication answer (" + e + ")";
  if (!mac_equal(theirs, mac_for(key, "distkit-client", hello, reply + 4)))
    return "authentication failed (wrong or missing job secret)";
  unsigned char ok = 'K';
  return write_exact(fd, &ok, 1, deadline);
}

}  // namespace distkit::rt
