// Group: argument checks, algorithm selection and sub-groups. The algorithms
// live in algorithms/, the sockets in transport/, connection setup in
// rendezvous/.
#include "distkit/runtime/group.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <tuple>

#include "algorithms/comm.hpp"
#include "algorithms/reduce.hpp"
#include "rendezvous/connect.hpp"

namespace distkit::rt {

namespace {

constexpr uint32_t kWorldContext = 0x00d15c01;

unsigned char* bytes(void* p) {
  return static_cast<unsigned char*>(p);
}
const unsigned char* bytes(const void* p) {
  return static_cast<const unsigned char*>(p);
}

void check_buffer(const void* p, size_t count, const char* what) {
  if (p == nullptr && count > 0)
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": null buffer for a non-empty message; pass a buffer");
}

size_t total_bytes(size_t count, size_t elem, size_t times, const char* what) {
  if (count > SIZE_MAX / elem / std::max<size_t>(times, 1))
    throw Error(ErrorCode::invalid_argument,
                std::string(what) + ": element count overflows size_t");
  return count * elem * times;
}

uint32_t mix(uint32_t h, uint32_t v) {
  h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
  return h;
}

}  // namespace

std::unique_ptr<Group> Group::create(const Config& cfg) {
  auto mesh = connect_mesh(cfg);
  std::vector<int> members(static_cast<size_t>(cfg.size()));
  std::iota(members.begin(), members.end(), 0);
  return std::unique_ptr<Group>(new Group(mesh, members, cfg.rank, kWorldContext));
}

std::unique_ptr<Group> Group::from_environment() {
  return create(config_from_environment());
}

Group::Group(std::shared_ptr<Mesh> mesh, std::vector<int> members, int rank, uint32_t context)
    : mesh_(std::move(mesh)), members_(std::move(members)), rank_(rank), context_(context) {}

Group::~Group() = default;

std::string Group::peer_host(int r) const {
  check_rank(r, "peer_host");
  return mesh_->host(members_[static_cast<size_t>(r)]);
}

void Group::check_rank(int r, const char* what) const {
  if (r < 0 || r >= size())
    throw Error(ErrorCode::invalid_argument, std::string(what) + ": rank " + std::to_string(r) +
                                                 " outside 0.." + std::to_string(size() - 1));
}

void Group::all_reduce(const void* in, void* out, size_t count, DType t, ReduceOp op) {
  check_reducible(t, op);
  check_buffer(in, count, "all_reduce");
  check_buffer(out, count, "all_reduce");
  mesh_->check_usable();
  size_t n = total_bytes(count, dtype_size(t), 1, "all_reduce");
  if (n == 0) return;
  if (in != out) std::memmove(out, in, n);
  if (size() == 1) return;
  Comm c{*mesh_, members_, rank_, context_};
  // Recursive doubling moves log2(n) whole buffers, the ring 2(n-1)/n of one
  // in 2(n-1) steps: the measured crossover grows with n (bench/README.md).
  if (n <= mesh_->config().small_bytes / 2 * static_cast<size_t>(size()))
    recursive_doubling_all_reduce(c, bytes(out), count, t, op);
  else
    ring_all_reduce(c, bytes(out), count, t, op);
}

void Group::all_gather(const void* in, void* out, size_t count, DType t) {
  check_buffer(in, count, "all_gather");
  check_buffer(out, count, "all_gather");
  mesh_->check_usable();
  size_t block = total_bytes(count, dtype_size(t), static_cast<size_t>(size()), "all_gather") /
                 static_cast<size_t>(size());
  if (block == 0) return;
  unsigned char* mine = bytes(out) + block * static_cast<size_t>(rank_);
  if (in != mine) std::memmove(mine, in, block);
  if (size() == 1) return;
  Comm c{*mesh_, members_, rank_, context_};
  ring_all_gather(c, bytes(out), count, t, FrameOp::all_gather);
}

void Group::reduce_scatter(const void* in, void* out, size_t count, DType t, ReduceOp op) {
  check_reducible(t, op);
  check_buffer(in, count, "reduce_scatter");
  check_buffer(out, count, "reduce_scatter");
  mesh_->check_usable();
  size_t all = total_bytes(count, dtype_size(t), static_cast<size_t>(size()), "reduce_scatter");
  size_t block = all / static_cast<size_t>(size());
  if (block == 0) return;
  const unsigned char* mine = bytes(in) + block * static_cast<size_t>(rank_);
  if (size() == 1) {
    if (out != in) std::memmove(out, in, block);
    return;
  }
  Comm c{*mesh_, members_, rank_, context_};
  // In place (out == in + rank*block) the caller's input is the work area,
  // as with NCCL.
  if (bytes(out) == mine) {
    ring_reduce_scatter(c, const_cast<unsigned char*>(bytes(in)), count, t, op);
    return;
  }
  // Out of place the input must stay untouched, so the ring works on a
  // scratch copy: a window of every block at a time, which keeps the
  // scratch at most kScratchChunks chunks whatever the message size. When
  // `out` overlaps the input elsewhere, writing a window's result could
  // clobber input still to be read: one window (a full copy) then.
  const size_t elem = dtype_size(t);
  const size_t n = static_cast<size_t>(size());
  constexpr size_t kScratchChunks = 128;
  size_t window = std::max(elem, mesh_->config().chunk_bytes * kScratchChunks / n / elem * elem);
  const bool overlaps = bytes(out) < bytes(in) + all && bytes(in) < bytes(out) + block;
  if (overlaps) window = block;
  for (size_t off = 0; off < block; off += window) {
    const size_t w = std::min(window, block - off);
    unsigned char* work = mesh_->staging(Mesh::kWorkSlot, w * n);
    for (size_t k = 0; k < n; ++k) std::memcpy(work + k * w, bytes(in) + k * block + off, w);
    ring_reduce_scatter(c, work, w / elem, t, op);
    std::memmove(bytes(out) + off, work + w * static_cast<size_t>(rank_), w);
  }
}

void Group::broadcast(void* data, size_t count, DType t, int root) {
  check_rank(root, "broadcast root");
  check_buffer(data, count, "broadcast");
  mesh_->check_usable();
  size_t n = total_bytes(count, dtype_size(t), 1, "broadcast");
  if (n == 0 || size() == 1) return;
  Comm c{*mesh_, members_, rank_, context_};
  if (n <= mesh_->config().small_bytes)
    broadcast_tree(c, bytes(data), n, root);
  else
    broadcast_chain(c, bytes(data), n, root);
}

void Group::send(const void* data, size_t n, int dst) {
  check_rank(dst, "send");
  check_buffer(data, n, "send");
  if (dst == rank_)
    throw Error(ErrorCode::invalid_argument, "send: to ourselves; pick another rank");
  mesh_->check_usable();
  Comm c{*mesh_, members_, rank_, context_};
  p2p_send(c, bytes(data), n, dst);
}

void Group::recv(void* data, size_t n, int src) {
  check_rank(src, "recv");
  check_buffer(data, n, "recv");
  if (src == rank_)
    throw Error(ErrorCode::invalid_argument, "recv: from ourselves; pick another rank");
  mesh_->check_usable();
  Comm c{*mesh_, members_, rank_, context_};
  p2p_recv(c, bytes(data), n, src);
}

void Group::barrier() {
  mesh_->check_usable();
  if (size() == 1) return;
  Comm c{*mesh_, members_, rank_, context_};
  dissemination_barrier(c);
}

std::unique_ptr<Group> Group::split(int color, int key) {
  mesh_->check_usable();
  std::vector<int32_t> all(2 * members_.size());
  all[2 * static_cast<size_t>(rank_)] = color;
  all[2 * static_cast<size_t>(rank_) + 1] = key;
  if (size() > 1) {
    Comm c{*mesh_, members_, rank_, context_};
    ring_all_gather(c, bytes(all.data()), 2, DType::int32, FrameOp::split);
  }
  ++splits_;
  if (color < 0) return nullptr;
  std::vector<std::tuple<int, int>> order;  // (key, group rank)
  for (int r = 0; r < size(); ++r)
    if (all[2 * static_cast<size_t>(r)] == color)
      order.emplace_back(all[2 * static_cast<size_t>(r) + 1], r);
  std::sort(order.begin(), order.end());
  std::vector<int> members;
  int new_rank = -1;
  uint32_t ctx = mix(mix(context_, splits_), static_cast<uint32_t>(color));
  for (auto [k, r] : order) {
    if (r == rank_) new_rank = static_cast<int>(members.size());
    members.push_back(members_[static_cast<size_t>(r)]);
    ctx = mix(ctx, static_cast<uint32_t>(members.back()));
  }
  return std::unique_ptr<Group>(new Group(mesh_, members, new_rank, ctx));
}

}  // namespace distkit::rt
