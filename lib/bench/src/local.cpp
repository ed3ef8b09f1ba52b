// distbench --threads N: N ranks in one process on 127.0.0.1, with free
// ports and a fresh random job secret.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <sstream>
#include <string_view>
#include <thread>

#include "distkit/bench/distbench.hpp"
#include "distkit/util/posix.hpp"
#include "distkit/util/random.hpp"

namespace distkit::bench {

namespace {

// Ports for the ranks' listeners are picked below the kernel's ephemeral
// range (Linux 32768-60999, macOS 49152-65535), in 20000-32000 like the
// shell tests' free_port_block (tests/integration/ports_lib.sh). A port that
// bind(0) hands out is free only until the probe closes it; before the rank
// listens, any outgoing connection (another rank's, in this very process) may
// take it as its local port. CI lost a run that way: "Address already in
// use", and a rank whose connect met its own socket. The pick starts at a
// random place, so parallel processes start apart.
constexpr uint16_t first_port = 20000, port_span = 12000;

// Binds a probe socket on 127.0.0.1:port; invalid if the port is taken.
posix::Fd bind_probe(uint16_t port) {
  posix::Fd fd(socket(AF_INET, SOCK_STREAM, 0));
  if (!fd.valid())
    throw rt::Error(rt::ErrorCode::system,
                    std::string("127.0.0.1: cannot open a socket for a rank's port: ") +
                        std::strerror(errno) +
                        "; run fewer ranks, or raise the open-file limit (ulimit -n)");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  if (bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) fd.reset();
  return fd;
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
  uint16_t start = 0;
  random_bytes(reinterpret_cast<unsigned char*>(&start), sizeof start);
  // Every probe stays bound until all ports are picked: no two ranks share one.
  std::vector<posix::Fd> held;
  std::vector<std::vector<rt::Endpoint>> eps(static_cast<size_t>(ranks));
  uint16_t tried = 0;
  for (auto& e : eps)
    while (static_cast<int>(e.size()) < per_rank) {
      if (tried == port_span)
        throw rt::Error(rt::ErrorCode::system,
                        "127.0.0.1: no free port in 20000-32000; stop what listens there, or "
                        "run fewer ranks");
      auto port = static_cast<uint16_t>(first_port + (start + tried++) % port_span);
      if (auto fd = bind_probe(port); fd.valid()) {
        held.push_back(std::move(fd));
        e.push_back({"127.0.0.1", port});
      }
    }
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
  // Every rank's sockets are this one process's: a socket per peer and a
  // listener each, N² in all (each rank raises the limit for its own only).
  const auto sockets = static_cast<rlim_t>(ranks) * static_cast<rlim_t>(ranks);
  const std::string refusal =
      posix::reserve_sockets(sockets, "--threads " + std::to_string(ranks), "run fewer ranks");
  if (!refusal.empty()) throw rt::Error(rt::ErrorCode::system, refusal);
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
