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

// Parses JSON text. `subject` names the source in errors (usually the path).
// Throws UsageError (exit 2) with an exact, actionable message for every
// problem: invalid JSON (line and column), wrong types, empty `ssh`, invalid
// IP strings, rdma matrix of the wrong shape, non-null diagonal, unknown
// backend, malformed env entries, duplicate hosts.
Hostfile parse(std::string_view json_text, std::string_view subject);

// Validates a model built in code (the same checks parse() applies).
void validate(const Hostfile& hf, std::string_view subject);

// The object form with 4-space indentation and no trailing newline,
// byte-identical to Python's json.dump(obj, f, indent=4) as the reference
// tool writes it.
std::string serialize(const Hostfile& hf);

// read_file + parse, and serialize + write_file_atomic.
Hostfile load(const std::filesystem::path& path);
void save(const std::filesystem::path& path, const Hostfile& hf);

}  // namespace distkit::hostfile
