// Mutual authentication of a new connection with the per-job secret
// (HMAC-SHA256 challenge/response; the secret itself never crosses the wire):
//   client -> server  hello: "DKH1", world size, client rank, stripe, nonce_c
//   server -> client  server rank, nonce_s, HMAC(k, "server" | hello | nonce_s)
//   client -> server  HMAC(k, "client" | hello | nonce_s)
//   server -> client  one byte 'K' (accepted)
// Both sides verify the other's MAC, so neither talks to an impostor.
#pragma once

#include <string>

#include "transport/socket.hpp"

namespace distkit::rt {

struct HelloInfo {
  int rank = -1;
  int stripe = -1;
};

// Returns "" on success, else the problem.
std::string client_handshake(int fd, const std::string& key, int world, int my_rank, int peer_rank,
                             int stripe, Clock::time_point deadline);
std::string server_handshake(int fd, const std::string& key, int world, int my_rank, HelloInfo& who,
                             Clock::time_point deadline);

}  // namespace distkit::rt
