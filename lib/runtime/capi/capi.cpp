// extern "C" surface over distkit::rt::Group (see distkit/distkit.h):
// exceptions become status codes plus a thread-local message.
#include "distkit/distkit.h"

#include <memory>
#include <string>

#include "distkit/runtime/group.hpp"

struct distkit_group {
  std::unique_ptr<distkit::rt::Group> group;
};

namespace {

using distkit::rt::DType;
using distkit::rt::ReduceOp;

thread_local std::string last_error;

template <typename F>
distkit_status guarded(F&& f) {
  try {
    f();
    last_error.clear();
    return DISTKIT_OK;
  } catch (const distkit::rt::Error& e) {
    last_error = e.what();
    return static_cast<distkit_status>(e.code());
  } catch (const std::exception& e) {
    last_error = std::string("internal error: ") + e.what();
    return DISTKIT_ERR_INTERNAL;
  } catch (...) {
    last_error = "internal error";
    return DISTKIT_ERR_INTERNAL;
  }
}

distkit::rt::Group& need(distkit_group* g) {
  if (!g || !g->group)
    throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument, "group: null handle");
  return *g->group;
}

DType dtype(distkit_dtype t) {
  if (t < DISTKIT_BOOL || t > DISTKIT_COMPLEX64)
    throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument,
                             "dtype: unknown value " + std::to_string(static_cast<int>(t)));
  return static_cast<DType>(t);
}

ReduceOp reduce_op(distkit_op op) {
  if (op < DISTKIT_SUM || op > DISTKIT_MIN)
    throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument,
                             "op: unknown value " + std::to_string(static_cast<int>(op)));
  return static_cast<ReduceOp>(op);
}

void wrap(std::unique_ptr<distkit::rt::Group> g, distkit_group** out) {
  *out = g ? new distkit_group{std::move(g)} : nullptr;
}

}  // namespace

extern "C" {

distkit_status distkit_init_from_env(distkit_group** out) {
  return guarded([&] {
    if (!out) throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument, "out: null");
    wrap(distkit::rt::Group::from_environment(), out);
  });
}

distkit_status distkit_init(const char* json, int rank, const char* secret_hex, int timeout_ms,
                            distkit_group** out) {
  return guarded([&] {
    if (!out || !json)
      throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument, "init: null argument");
    distkit::rt::Config cfg;
    cfg.endpoints = distkit::rt::parse_ring_hostfile(json, "hostfile");
    cfg.rank = rank;
    if (secret_hex)
      cfg.secret = distkit::rt::decode_secret_hex(secret_hex, "secret");
    else
      cfg.insecure = true;
    if (timeout_ms > 0) cfg.timeout = std::chrono::milliseconds(timeout_ms);
    wrap(distkit::rt::Group::create(cfg), out);
  });
}

void distkit_finalize(distkit_group* g) {
  delete g;
}

int distkit_rank(const distkit_group* g) {
  return g && g->group ? g->group->rank() : -1;
}
int distkit_size(const distkit_group* g) {
  return g && g->group ? g->group->size() : -1;
}

size_t distkit_dtype_size(distkit_dtype t) {
  return t >= DISTKIT_BOOL && t <= DISTKIT_COMPLEX64
             ? distkit::rt::dtype_size(static_cast<DType>(t))
             : 0;
}

distkit_status distkit_all_reduce(distkit_group* g, const void* in, void* out, size_t count,
                                  distkit_dtype t, distkit_op op) {
  return guarded([&] { need(g).all_reduce(in, out, count, dtype(t), reduce_op(op)); });
}

distkit_status distkit_all_gather(distkit_group* g, const void* in, void* out, size_t count,
                                  distkit_dtype t) {
  return guarded([&] { need(g).all_gather(in, out, count, dtype(t)); });
}

distkit_status distkit_reduce_scatter(distkit_group* g, const void* in, void* out, size_t count,
                                      distkit_dtype t, distkit_op op) {
  return guarded([&] { need(g).reduce_scatter(in, out, count, dtype(t), reduce_op(op)); });
}

distkit_status distkit_broadcast(distkit_group* g, void* data, size_t count, distkit_dtype t,
                                 int root) {
  return guarded([&] { need(g).broadcast(data, count, dtype(t), root); });
}

distkit_status distkit_send(distkit_group* g, const void* data, size_t bytes, int dst) {
  return guarded([&] { need(g).send(data, bytes, dst); });
}

distkit_status distkit_recv(distkit_group* g, void* data, size_t bytes, int src) {
  return guarded([&] { need(g).recv(data, bytes, src); });
}

distkit_status distkit_barrier(distkit_group* g) {
  return guarded([&] { need(g).barrier(); });
}

distkit_status distkit_split(distkit_group* g, int color, int key, distkit_group** out) {
  return guarded([&] {
    if (!out) throw distkit::rt::Error(distkit::rt::ErrorCode::invalid_argument, "out: null");
    wrap(need(g).split(color, key), out);
  });
}

const char* distkit_last_error(void) {
  return last_error.c_str();
}

}  // extern "C"
