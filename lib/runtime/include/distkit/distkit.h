/* The C API of the distkit collective runtime, for C, Python (ctypes), Swift
 * and anything else with a C FFI. Opaque group handles; every call returns a
 * distkit_status (0 = ok) and, on failure, leaves a one-line message for the
 * calling thread in distkit_last_error(). Semantics are those of
 * distkit::rt::Group (distkit/runtime/group.hpp): all ranks make the same
 * calls in the same order; a handle is used by one thread at a time. */
#ifndef DISTKIT_DISTKIT_H
#define DISTKIT_DISTKIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct distkit_group distkit_group;

typedef enum distkit_status {
  DISTKIT_OK = 0,
  DISTKIT_ERR_INVALID_ARGUMENT = 1,
  DISTKIT_ERR_CONFIG = 2,
  DISTKIT_ERR_PEER = 3,
  DISTKIT_ERR_AUTH = 4,
  DISTKIT_ERR_TIMEOUT = 5,
  DISTKIT_ERR_BROKEN = 6,
  DISTKIT_ERR_SYSTEM = 7,
  DISTKIT_ERR_INTERNAL = 8
} distkit_status;

typedef enum distkit_dtype {
  DISTKIT_BOOL = 0,
  DISTKIT_INT8,
  DISTKIT_INT16,
  DISTKIT_INT32,
  DISTKIT_INT64,
  DISTKIT_UINT8,
  DISTKIT_UINT16,
  DISTKIT_UINT32,
  DISTKIT_UINT64,
  DISTKIT_FLOAT16,
  DISTKIT_BFLOAT16,
  DISTKIT_FLOAT32,
  DISTKIT_FLOAT64,
  DISTKIT_COMPLEX64,
  /* Not a type: callers (C, ctypes, Swift) may pass any int, and this makes
     every int a value of the enum, so the library can check it without
     undefined behaviour in C++. Out-of-range values give
     DISTKIT_ERR_INVALID_ARGUMENT. */
  DISTKIT_DTYPE_RANGE_ = 0x7fffffff
} distkit_dtype;

typedef enum distkit_op {
  DISTKIT_SUM = 0,
  DISTKIT_PROD,
  DISTKIT_MAX,
  DISTKIT_MIN,
  DISTKIT_OP_RANGE_ = 0x7fffffff /* not an op: see DISTKIT_DTYPE_RANGE_ */
} distkit_op;

/* From MLX_RANK, MLX_HOSTFILE, DISTKIT_SECRET_FILE (see config.hpp). */
distkit_status distkit_init_from_env(distkit_group** out);
/* Explicit: ring hostfile JSON text, this rank, hex secret (NULL = run
 * unauthenticated), stall timeout in ms (0 = default). */
distkit_status distkit_init(const char* hostfile_json, int rank, const char* secret_hex,
                            int timeout_ms, distkit_group** out);
/* Frees the handle (NULL is fine). Sub-groups may outlive their parent. */
void distkit_finalize(distkit_group* g);

int distkit_rank(const distkit_group* g);
int distkit_size(const distkit_group* g);
size_t distkit_dtype_size(distkit_dtype t);

distkit_status distkit_all_reduce(distkit_group* g, const void* in, void* out, size_t count,
                                  distkit_dtype t, distkit_op op);
distkit_status distkit_all_gather(distkit_group* g, const void* in, void* out, size_t count,
                                  distkit_dtype t);
distkit_status distkit_reduce_scatter(distkit_group* g, const void* in, void* out, size_t count,
                                      distkit_dtype t, distkit_op op);
distkit_status distkit_broadcast(distkit_group* g, void* data, size_t count, distkit_dtype t,
                                 int root);
distkit_status distkit_send(distkit_group* g, const void* data, size_t bytes, int dst);
distkit_status distkit_recv(distkit_group* g, void* data, size_t bytes, int src);
distkit_status distkit_barrier(distkit_group* g);
/* *out is NULL for color < 0 (not a member). */
distkit_status distkit_split(distkit_group* g, int color, int key, distkit_group** out);

/* Message of the calling thread's last failed call ("" if none). */
const char* distkit_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
