// distbench --threads N: N ranks in one process on 127.0.0.1, with ports the
// kernel hands out and a fresh random job secret.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <exception>
#include <sstream>
#include <string_view>
#include <thread>
#include "distkit/util/random.hpp"

#include "distkit/bench/distbench.hpp"

namespace distkit::bench {

namespace {

uint16_t free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw rt::Error(rt::ErrorCode::system, "socket: cannot create");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  bool ok = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  close(fd);
  if (!ok) throw rt::Error(rt::ErrorCode::system, "127.0.0.1: no free port");
  return ntohs(a.sin_port);
}

}  // namespace

size_t parse_size(const std::string& text, const std::string& flag) {
  unsigned long long v = 0;
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, v);
  int shift = 0;
  if (ec == std::errc() && stop + 1 == end) {
    size_t unit = std::string_view("KMGkmg").find(*stop++);
    shift = unit == std::string_view::npos ? -1 : 10 * static_cast<int>(unit % 3 + 1);
  }
  if (ec != std::errc() || stop != end || shift < 0 || v >= (1ull << (50 - shift)))
    throw rt::Error(rt::ErrorCode::invalid_argument,
                    flag + ": '" + text + "' is not a size; use bytes with an optional K, M or G");
  return static_cast<size_t>(v << shift);
}

std::vector<std::vector<rt::Endpoint>> loopback_endpoints(int ranks, int per_rank) {
  std::vector<std::vector<rt::Endpoint>> eps(static_cast<size_t>(ranks));
  for (auto& e : eps)
    for (int k = 0; k < per_rank; ++k) e.push_back({"127.0.0.1", free_port()});
  return eps;
}

std::vector<std::exception_ptr> run_rank_threads(
    const rt::Config& base, const std::function<void(rt::Config&)>& rank_main) {
  std::vector<std::exception_ptr> errors(static_cast<size_t>(base.size()));
  std::vector<std::thread> threads;
  threads.reserve(errors.size());
  for (int r = 0; r < base.size(); ++r)
    threads.emplace_back([&, r] {
      try {
        rt::Config c = base;
        c.rank = r;
        rank_main(c);
      } catch (...) {
        errors[static_cast<size_t>(r)] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  return errors;
}

int run_local_threads(const Options& opt, int ranks, std::ostream& out) {
  rt::Config base;
  base.endpoints = loopback_endpoints(ranks);
  base.secret.resize(32);
  random_bytes(reinterpret_cast<unsigned char*>(base.secret.data()), base.secret.size());
  std::vector<int> status(static_cast<size_t>(ranks), 0);
  std::ostringstream discard;
  for (auto& e : run_rank_threads(base, [&](rt::Config& c) {
         auto g = rt::Group::create(c);
         status[static_cast<size_t>(c.rank)] = run_distbench(opt, *g, c.rank == 0 ? out : discard);
       }))
    if (e) std::rethrow_exception(e);
  return status[0];
}

}  // namespace distkit::bench
