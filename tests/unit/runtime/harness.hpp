// Test harness: N ranks of a group as threads of this process, each with its
// own Config on 127.0.0.1 ports the kernel just handed out.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "distkit/runtime/group.hpp"

namespace distkit::rt::test {

inline uint16_t free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

inline std::vector<std::vector<Endpoint>> local_endpoints(int n, int per_rank = 1) {
  std::vector<std::vector<Endpoint>> eps(static_cast<size_t>(n));
  for (auto& e : eps)
    for (int k = 0; k < per_rank; ++k) e.push_back({"127.0.0.1", free_port()});
  return eps;
}

inline Config base_config(int n, int per_rank = 1) {
  Config c;
  c.endpoints = local_endpoints(n, per_rank);
  c.secret = "0123456789abcdef0123456789abcdef";
  c.timeout = std::chrono::milliseconds(5000);
  c.connect_timeout = std::chrono::milliseconds(5000);
  c.chunk_bytes = 4096;
  c.small_bytes = 1024;
  return c;
}

struct RankResult {
  std::string error;  // what() of the first exception, "" if none
  int code = 0;
  int peer = -1;
};

// Runs fn(group) on every rank in its own thread; per-rank config tweaks via
// `adjust`. Returns each rank's outcome.
inline std::vector<RankResult> run_ranks(const Config& base, const std::function<void(Group&)>& fn,
                                         const std::function<void(Config&)>& adjust = {}) {
  int n = base.size();
  std::vector<RankResult> out(static_cast<size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r) {
    threads.emplace_back([&, r] {
      Config c = base;
      c.rank = r;
      if (adjust) adjust(c);
      try {
        auto g = Group::create(c);
        fn(*g);
      } catch (const Error& e) {
        out[static_cast<size_t>(r)] = {e.what(), static_cast<int>(e.code()), e.peer()};
      } catch (const std::exception& e) {
        out[static_cast<size_t>(r)] = {std::string("std: ") + e.what(), -1, -1};
      }
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace distkit::rt::test
