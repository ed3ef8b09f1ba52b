// Mesh setup (see connect.hpp).
#include "rendezvous/connect.hpp"

#include <poll.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "distkit/util/posix.hpp"
#include "rendezvous/handshake.hpp"

namespace distkit::rt {

namespace {

void validate(const Config& cfg) {
  if (cfg.size() < 1)
    throw Error(ErrorCode::config, "config: no ranks; give every rank's endpoints");
  if (cfg.rank < 0 || cfg.rank >= cfg.size())
    throw Error(ErrorCode::config, "config: rank " + std::to_string(cfg.rank) + " outside 0.." +
                                       std::to_string(cfg.size() - 1) +
                                       "; check MLX_RANK against the hostfile");
  for (const auto& e : cfg.endpoints)
    if (e.empty())
      throw Error(ErrorCode::config, "config: a rank has no endpoints; fix the hostfile");
  if (cfg.secret.empty() && !cfg.insecure)
    throw Error(ErrorCode::config,
                "config: no job secret; pass one (DISTKIT_SECRET_FILE) or set insecure "
                "(DISTKIT_INSECURE=1) on a trusted network");
  if (cfg.chunk_bytes < 4096) throw Error(ErrorCode::config, "config: chunk_bytes below 4096");
}

int stripes_between(const Config& cfg, int a, int b) {
  size_t n = std::min(cfg.endpoints[static_cast<size_t>(a)].size(),
                      cfg.endpoints[static_cast<size_t>(b)].size());
  return static_cast<int>(
      std::min<size_t>(n, static_cast<size_t>(std::clamp(cfg.max_stripes, 1, 16))));
}

void connect_lower(const Config& cfg, Mesh& mesh, Clock::time_point deadline) {
  for (int peer = 0; peer < cfg.rank; ++peer) {
    auto& conns = mesh.stripes(peer);
    for (int s = 0; s < stripes_between(cfg, cfg.rank, peer); ++s) {
      const Endpoint& ep = cfg.endpoints[static_cast<size_t>(peer)][static_cast<size_t>(s)];
      std::string why;
      posix::Fd fd;
      while (!fd.valid()) {
        fd = posix::Fd(try_connect(ep, deadline, why));
        if (fd.valid()) break;
        if (Clock::now() >= deadline)
          throw Error(ErrorCode::timeout,
                      mesh.describe(peer) + ": cannot connect to " + ep.host + ":" +
                          std::to_string(ep.port) + " (" + why +
                          "); is the rank running and the address reachable? "
                          "(DISTKIT_CONNECT_TIMEOUT_MS)",
                      peer);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      std::string bad =
          client_handshake(fd.get(), cfg.secret, cfg.size(), cfg.rank, peer, s, deadline);
      if (!bad.empty())
        throw Error(ErrorCode::auth,
                    mesh.describe(peer) + ": " + bad + "; every rank must get the same job secret",
                    peer);
      tune_socket(fd.get());
      conns.push_back(Conn{fd.release(), peer, 0, 0, false});
    }
  }
}

void accept_upper(const Config& cfg, Mesh& mesh, const std::vector<posix::Fd>& listeners,
                  Clock::time_point deadline) {
  // Stripes arrive in any order: the mesh gets every expected connection
  // unset (fd -1) and each is set by the stripe index it claims (the mesh
  // closes them if we throw).
  int missing = 0;
  for (int p = cfg.rank + 1; p < cfg.size(); ++p) {
    int n = stripes_between(cfg, cfg.rank, p);
    mesh.stripes(p).assign(static_cast<size_t>(n), Conn{-1, p, 0, 0, false});
    missing += n;
  }
  std::vector<pollfd> fds;
  fds.reserve(listeners.size());
  for (const auto& l : listeners) fds.push_back({l.get(), POLLIN, 0});
  while (missing > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      throw Error(ErrorCode::timeout,
                  "rank " + std::to_string(cfg.rank) + ": " + std::to_string(missing) +
                      " connection(s) from higher ranks never arrived; are all ranks running "
                      "with the same hostfile? (DISTKIT_CONNECT_TIMEOUT_MS)");
    poll(fds.data(), static_cast<nfds_t>(fds.size()),
         static_cast<int>(std::min<long long>(left.count(), 200)));
    for (auto& p : fds) {
      std::string from;
      posix::Fd fd(accept_one(p.fd, from));
      if (!fd.valid()) continue;
      HelloInfo who;
      auto hs_deadline = std::min(deadline, Clock::now() + std::chrono::seconds(5));
      std::string bad =
          server_handshake(fd.get(), cfg.secret, cfg.size(), cfg.rank, who, hs_deadline);
      if (bad.empty() && (who.rank <= cfg.rank || who.rank >= cfg.size() ||
                          who.stripe >= static_cast<int>(mesh.stripes(who.rank).size()) ||
                          mesh.stripes(who.rank)[static_cast<size_t>(who.stripe)].fd >= 0))
        bad =
            "unexpected rank/stripe " + std::to_string(who.rank) + "/" + std::to_string(who.stripe);
      if (!bad.empty()) {
        std::fprintf(stderr, "distkit: rank %d: refused connection from %s: %s\n", cfg.rank,
                     from.c_str(), bad.c_str());
        continue;
      }
      tune_socket(fd.get());
      mesh.stripes(who.rank)[static_cast<size_t>(who.stripe)].fd = fd.release();
      --missing;
    }
  }
}

// A socket per peer and stripe, and the listeners: a rank with 16 stripes
// to 15 peers needs 256 descriptors, macOS's default soft limit. The limit
// is raised for them, with room for what the program has open already, or
// the rank fails at once naming the limit.
void ensure_descriptors(const Config& cfg) {
  rlim_t sockets =
      cfg.rank + 1 < cfg.size() ? cfg.endpoints[static_cast<size_t>(cfg.rank)].size() : 0;
  for (int p = 0; p < cfg.size(); ++p)
    if (p != cfg.rank) sockets += static_cast<rlim_t>(stripes_between(cfg, cfg.rank, p));
  const std::string refusal =
      posix::reserve_sockets(sockets, "rank " + std::to_string(cfg.rank),
                             "use fewer ranks a host or stripes (DISTKIT_MAX_STRIPES)");
  if (!refusal.empty()) throw Error(ErrorCode::system, refusal);
}

}  // namespace

std::shared_ptr<Mesh> connect_mesh(const Config& cfg) {
  validate(cfg);
  ensure_descriptors(cfg);
  auto mesh = std::make_shared<Mesh>(cfg);
  auto deadline = Clock::now() + cfg.connect_timeout;
  std::vector<posix::Fd> listeners;  // closed when we return or throw
  if (cfg.rank + 1 < cfg.size())
    for (const auto& ep : cfg.endpoints[static_cast<size_t>(cfg.rank)])
      listeners.emplace_back(listen_on(ep));
  connect_lower(cfg, *mesh, deadline);
  accept_upper(cfg, *mesh, listeners, deadline);
  return mesh;
}

}  // namespace distkit::rt
