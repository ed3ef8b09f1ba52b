// The launch plan: which rank runs on which host with which environment and
// data files. Pure (no I/O, no SSH): built from a hostfile model and the
// options, so every backend's environment is unit-tested against the
// reference per-rank scripts (SPEC §3, mlx.launch conventions).
//
// Besides MLX's variables every rank gets distkit's own (documented contract
// with the runtime): DISTKIT_RANK, DISTKIT_WORLD_SIZE, DISTKIT_LOCAL_RANK and
// DISTKIT_LOCAL_SIZE (rank and count among the ranks of the same host),
// DISTKIT_HOST (the hostfile's ssh name), DISTKIT_JOB_ID (random per run),
// and, set by the host's agent, DISTKIT_SECRET_FILE (mode-0600 file
// holding the per-job secret in hex, removed with the rank's temp dir) and
// DISTKIT_HEARTBEAT_FILE (a path in that dir the rank may create and keep
// touching; distlaunch reports a rank whose updates stop as stalled).
// Order: backend variables, MLX_RANK, DISTKIT_*, hostfile `envs`, --env,
// then what mlx.launch adds after those (COLUMNS and LINES from
// distlaunch's terminal unless COLUMNS is set; with --verbose
// MLX_RING_VERBOSE=1 for ring, NCCL_DEBUG=INFO for nccl) and
// PYTHONUNBUFFERED (distkit's, unless `envs` or --env set it) (later
// entries win); data files (MLX_HOSTFILE, MLX_IBV_DEVICES) first.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/launch/options.hpp"

namespace distkit::launch {

// A file the host's agent writes into the rank's temp dir on its host before the
// command starts; `env` is set to its path. Removed when the rank ends.
// Every rank gets the same content (the ring list, the RDMA matrix): it is
// shared, so a plan stays linear in the number of ranks (4096 ranks with
// private copies of a 4096-entry ring list would take 330 MB).
struct DataFile {
  std::string env;                             // e.g. MLX_HOSTFILE
  std::string name;                            // file name inside the temp dir
  std::shared_ptr<const std::string> content;  // written followed by one newline
  const std::string& text() const;             // the content ("" when unset)
};

using EnvList = std::vector<std::pair<std::string, std::string>>;

struct RankSpec {
  int rank = 0;
  std::string host;  // the hostfile's ssh name
  int local_rank = 0;
  int local_size = 1;
  EnvList env;                  // exported in order (later keys win)
  std::vector<DataFile> files;  // exported after env
  std::vector<int> ports;       // ports this rank's backend listens on
};

struct Plan {
  hostfile::Backend backend = hostfile::Backend::ring;
  std::vector<RankSpec> ranks;
  std::vector<std::string> hosts;  // distinct ssh names, first-use order
  std::vector<std::string> command;
  std::optional<std::string> cwd;
  std::string job_id;
};

// Maps a host name without `ips` to the address its ranks listen on
// (ssh_config HostName, then name resolution); nullopt when unknown.
using AddressResolver = std::function<std::optional<std::string>(const std::string&)>;

// Backend choice: flag, else hostfile `backend` ("" = plain ring), else ring.
hostfile::Backend choose_backend(const LaunchOptions& options, const hostfile::Hostfile& hf);

// Builds the plan: the hostfile's hosts, each repeated -n times in place
// (a,a,b,b, hostfile::repeat_hosts), one rank per entry. Throws UsageError for bad env entries, a
// host whose address is needed but cannot be resolved, an empty command, ports out of range,
// and RDMA pairs the jaccl backends use but the file leaves out (hostfile::require_jaccl_links).
// `job_id` is stored as DISTKIT_JOB_ID.
Plan build_plan(const hostfile::Hostfile& hf, const LaunchOptions& options,
                const AddressResolver& resolve, const std::string& job_id);

// The terminal size as Python's shutil.get_terminal_size((0, 0)) gives it
// (what mlx.launch passes as COLUMNS/LINES, MLX #3618): the COLUMNS and
// LINES variables (`columns`, `lines`; null when unset) where they are
// positive integers, the rest from `tty` (the size of distlaunch's
// standard output when it is a terminal), else 0.
TerminalSize terminal_size(const char* columns, const char* lines, std::optional<TerminalSize> tty);

// One line per variable given to the ranks (hostfile `envs`, named after
// `hostfile_subject`, then --env) that MLX's docs advise against
// (hostfile::env_advice); the job runs with them.
std::vector<std::string> env_warnings(const hostfile::Hostfile& hf, const LaunchOptions& o,
                                      const std::string& hostfile_subject);

// A rank's private temp dir as the dry run and the manifest show it: the
// host's agent chooses the real path when the rank starts.
inline constexpr const char* kRankDirShown = "$DISTLAUNCH_TMP";

// The environment a rank sees with files resolved to `dir/name`, later keys
// replacing earlier ones (what `env` would print, minus inherited variables).
EnvList effective_env(const RankSpec& rank, const std::string& dir);

}  // namespace distkit::launch
