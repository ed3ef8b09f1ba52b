// The hostfile model: the MLX-compatible JSON that distconfig writes and
// distlaunch (and mlx.launch) reads. Pure: no I/O beyond the read/write
// helpers at the bottom, no SSH, no processes.
//
// Schema (SPEC §2): either a bare list of host objects, or
//   {"backend": "...", "envs": ["K=V", ...], "hosts": [...]}
// with backend and envs optional. Host object:
//   {"ssh": "<name>", "ips": ["<ipv4 or ipv6>", ...], "rdma": [...]}
// where rdma[j] is null, a device name, or (jaccl-ring with parallel cables)
// a list of device names.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace distkit::hostfile {

// One entry of a host's `rdma` row: null, "rdma_enX", or ["rdma_enX", ...].
using RdmaEntry = std::variant<std::monostate, std::string, std::vector<std::string>>;

struct Host {
  std::string ssh;
  std::vector<std::string> ips;
  std::vector<RdmaEntry> rdma;
  bool operator==(const Host&) const = default;
};

// Backends a hostfile may name. `none` is the empty string "" that
// distconfig writes for plain Ethernet setups.
enum class Backend { none, ring, jaccl, jaccl_ring, nccl, mpi };

std::string_view to_string(Backend b);
// Parses a backend name; throws UsageError with a "did you mean" hint.
Backend parse_backend(std::string_view name, std::string_view subject);

struct Hostfile {
  // Absent in a bare-list file; written as "" when set to Backend::none.
  std::optional<Backend> backend;
  std::vector<std::string> envs;  // "KEY=VALUE"
  std::vector<Host> hosts;
  bool operator==(const Hostfile&) const = default;
};

// Limits that keep every input bounded (a hostfile is a few KiB in practice).
inline constexpr size_t kMaxHostfileBytes = size_t(64) << 20;
inline constexpr size_t kMaxHosts = 4096;
inline constexpr int kMaxJsonDepth = 32;  // a valid hostfile nests 5 levels

// Parses JSON text. `subject` names the source in errors (usually the path).
// Throws UsageError (exit 2) with one exact, actionable line for every
// problem: invalid JSON (line and column), wrong types (naming the JSON path,
// e.g. `hosts[2].ips[0]`), unknown keys (with "did you mean"), then every
// check validate() makes. Any byte string gives either a Hostfile or a
// UsageError: never a crash, whatever the input. JSON paths name the object
// form: `hosts[2]` is the third host in a bare list as well.
Hostfile parse(std::string_view json_text, std::string_view subject);

// Validates a model built in code (the same checks parse() applies after the
// type checks): 1..4096 hosts; `ssh` non-empty, not starting with '-', no
// white space or control characters; every `ips` entry an IPv4 or IPv6
// address (inet_pton; IPv6 may carry a %zone); every non-empty `rdma` row has
// one entry per host, null at the host's own index, device names non-empty;
// `envs` entries KEY=VALUE with KEY in [A-Za-z0-9_]+; all strings UTF-8.
// A host listed more than once is one more rank on it (as in MLX); all its
// entries must have the same `ips`. Throws UsageError.
void validate(const Hostfile& hf, std::string_view subject);

// Advice on one "KEY=VALUE" entry for the ranks, "" when there is none:
// MLX_METAL_FAST_SYNCH turned on (a value atoi reads as non-zero, as MLX
// does) can wedge the GPU (MLX #3142, #4005) and MLX's docs now say to
// leave it unset. A warning, never an error: the job runs with it.
std::string env_advice(std::string_view entry);

// The RDMA pairs the backend will use name devices (MLX #4283: a file that
// misses one runs as N groups of one computing wrong answers; MLX refuses
// it since #4284). jaccl: one row of n entries per rank, a device for every
// pair. jaccl-ring (host order = ring order): each rank's two neighbours,
// with the same number of devices on every ring link. Throws UsageError
// naming the first bad entry and its pair. Other backends: nothing.
void require_jaccl_links(const std::vector<Host>& hosts, Backend backend, std::string_view subject);

// True for an IPv4 dotted quad or an IPv6 address (optionally with a %zone
// suffix such as fe80::1%en0), as inet_pton accepts them.
bool is_ip_address(std::string_view s);

// The object form with 4-space indentation and no trailing newline,
// byte-identical to Python's json.dump(obj, f, indent=4) as the reference
// tool writes it.
std::string serialize(const Hostfile& hf);

// read_file + parse (UsageError "no such hostfile" when absent, and for files
// over 64 MiB), and validate + serialize + write_file_atomic.
Hostfile load(const std::filesystem::path& path);
void save(const std::filesystem::path& path, const Hostfile& hf);

}  // namespace distkit::hostfile
