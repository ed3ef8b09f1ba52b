// Connection authentication (see handshake.hpp).
#include "rendezvous/handshake.hpp"

#include <cstring>
#include "distkit/util/random.hpp"

#include "rendezvous/hmac.hpp"
#include "transport/frame.hpp"

namespace distkit::rt {

namespace {

constexpr unsigned char kMagic[4] = {'D', 'K', 'H', '1'};  // a hello's first bytes
constexpr size_t kHelloSize = 4 + 4 + 4 + 4 + 32;
constexpr size_t kReplySize = 4 + 32 + 32;

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
  std::memcpy(hello, kMagic, sizeof kMagic);
  put_le(hello + 4, static_cast<uint32_t>(world), 4);
  put_le(hello + 8, static_cast<uint32_t>(my_rank), 4);
  put_le(hello + 12, static_cast<uint32_t>(stripe), 4);
  random_bytes(hello + 16, 32);
  if (auto e = write_exact(fd, hello, sizeof hello, deadline); !e.empty()) return e;
  unsigned char reply[kReplySize];
  if (auto e = read_exact(fd, reply, sizeof reply, deadline); !e.empty())
    return e == "connection closed" ? "peer closed the connection (authentication refused?)" : e;
  if (get_le(reply, 4) != static_cast<uint32_t>(peer_rank)) return "answered by the wrong rank";
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
  if (std::memcmp(hello, kMagic, sizeof kMagic) != 0) return "not a distkit peer (bad hello)";
  if (get_le(hello + 4, 4) != static_cast<uint32_t>(world))
    return "peer is in a job of another size";
  who.rank = static_cast<int>(get_le(hello + 8, 4) & 0x7fffffff);
  who.stripe = static_cast<int>(get_le(hello + 12, 4) & 0x7fffffff);
  unsigned char reply[kReplySize];
  put_le(reply, static_cast<uint32_t>(my_rank), 4);
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
