// A communication group: the ranks of one job (or a subset made by split),
// fully connected over authenticated TCP, and the collectives they call.
//
// Contract:
// - Every rank of a group must call the same collectives in the same order
//   with matching counts, dtypes and roots; a mismatch is detected by frame
//   validation and reported as Error(peer).
// - A group is used by one thread at a time (no concurrent calls on one group
//   or on groups split from it).
// - Buffers are user memory; counts are element counts (size_t, > 4 GiB is
//   fine). In-place variants pass the same pointer for input and output.
// - After any failure (peer died, reset, stalled past Config::timeout, sent a
//   bad frame) the group and all groups sharing its connections are broken:
//   the connections are closed so the other ranks fail promptly too, and
//   every later call throws Error(broken) repeating the first failure.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "distkit/runtime/config.hpp"
#include "distkit/runtime/types.hpp"

namespace distkit::rt {

class Mesh;

class Group {
 public:
  // Connects to every peer (authenticated) and returns the world group.
  static std::unique_ptr<Group> create(const Config& cfg);
  // create(config_from_environment()).
  static std::unique_ptr<Group> from_environment();
  ~Group();
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return static_cast<int>(members_.size()); }

  // out[i] = op over ranks of in[i], count elements. in may equal out.
  void all_reduce(const void* in, void* out, size_t count, DType t, ReduceOp op);
  void all_reduce(void* data, size_t count, DType t, ReduceOp op) {
    all_reduce(data, data, count, t, op);
  }
  // out (count*size elements) = every rank's in (count elements), rank order.
  // in may point at out + rank*count*dtype_size (in-place).
  void all_gather(const void* in, void* out, size_t count, DType t);
  // in has count*size elements; out (count elements) = op over ranks of
  // block `rank` of in. out may point at in + rank*count*dtype_size.
  void reduce_scatter(const void* in, void* out, size_t count, DType t, ReduceOp op);
  // Copies root's data to every rank.
  void broadcast(void* data, size_t count, DType t, int root);
  // Point-to-point between any two ranks; the byte counts must match.
  void send(const void* data, size_t bytes, int dst);
  void recv(void* data, size_t bytes, int src);
  void barrier();
  // Ranks with the same color form a new group ordered by (key, rank).
  // Collective over this group. color < 0 returns nullptr (not a member).
  std::unique_ptr<Group> split(int color, int key);

  // The host string rank r is known by (first endpoint), for reports.
  std::string peer_host(int r) const;

 private:
  Group(std::shared_ptr<Mesh> mesh, std::vector<int> members, int rank, uint32_t context);
  void check_rank(int r, const char* what) const;

  std::shared_ptr<Mesh> mesh_;
  std::vector<int> members_;  // group rank -> world rank
  int rank_;
  uint32_t context_;
  uint32_t splits_ = 0;
};

}  // namespace distkit::rt
