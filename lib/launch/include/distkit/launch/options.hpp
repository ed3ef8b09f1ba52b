// Everything distlaunch is told on its command line, as one plain struct.
// The CLI (cli.cpp) fills it; the plan, the supervisor and the manifest read
// it. Flags mirror mlx.launch so existing command lines keep working.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace distkit::launch {

// A duration given in seconds for `flag`, as the flags take them ("1.5"),
// as the milliseconds LaunchOptions holds (truncated to the millisecond).
// It is `least` to a year; anything else (NaN, infinity, a negative) is
// refused naming the flag (cli.cpp).
std::chrono::milliseconds seconds_as_ms(double seconds, const std::string& flag, double least = 0);

struct TerminalSize {
  int columns = 0, lines = 0;
  bool operator==(const TerminalSize&) const = default;
};

struct LaunchOptions {
  // Where the ranks go (mlx.launch: --hosts / --hostfile / -n).
  std::optional<std::string> hosts;               // --hosts a,b,c
  std::optional<std::filesystem::path> hostfile;  // --hostfile
  std::optional<int> repeat_hosts;                // -n; unset: a Slurm layout, else 1
  std::optional<std::string> backend;             // --backend (beats hostfile)
  std::vector<std::string> env;                   // --env K=V (after hostfile envs)
  std::vector<std::string> mpi_args;              // --mpi-arg (backend mpi)
  int connections_per_ip = 1;                     // --connections-per-ip
  int starting_port = 32323;                      // --starting-port/-p
  int nccl_port = 12345;                          // --nccl-port
  std::optional<std::string> cwd;                 // --cwd (must exist when given)
  // --python: put before the command, whatever it is (mlx.launch since MLX
  // #4002); unset: the command runs as given (MLX #3536 removed the
  // automatic interpreter before *.py scripts).
  std::optional<std::string> python;
  bool verbose = false;              // also MLX_RING_VERBOSE / NCCL_DEBUG for the ranks
  bool print_python = false;         // --print-python: print it, exit
  std::vector<std::string> command;  // after --

  // What distlaunch's surroundings say (run_distlaunch fills these; tests
  // set them), for the ranks' environment as mlx.launch gives it: the
  // terminal's size as Python's shutil.get_terminal_size((0, 0)) reads it
  // (COLUMNS/LINES; 0 columns: none), and PYTHONUNBUFFERED when
  // distlaunch's own environment sets it.
  TerminalSize terminal;
  std::optional<std::string> python_unbuffered;
  // SLURM_JOB_ID when distlaunch runs inside a Slurm allocation (for the
  // manifest).
  std::optional<std::string> slurm_job_id;

  // distkit's own.
  std::optional<std::filesystem::path> ssh_config;
  bool dry_run = false;
  bool json = false;
  bool tag_output = false;
  std::optional<std::filesystem::path> log_dir;
  std::optional<std::filesystem::path> record_dir;
  std::optional<std::filesystem::path> debug_log;  // --debug-log FILE
  std::optional<int> stdin_rank;                   // default: broadcast
  bool no_stdin = false;                           // --no-stdin: ranks get EOF
  std::chrono::milliseconds grace{3000};           // TERM -> KILL
  std::chrono::milliseconds timeout{0};            // whole job; 0 = none
  // After the first rank exits 0, the others get this long to finish; 0 =
  // wait forever. Guards against a job hanging on a peer that left early.
  std::chrono::milliseconds exit_window{60000};
  // The agent stops a rank when no heartbeat for it arrived for this long.
  std::chrono::seconds heartbeat_limit{5};
  // No rank made progress for this long is a stall (--stall-timeout; 0 =
  // off; stall_watch.hpp says what progress is), which stops the job or
  // only reports it (--on-stall).
  std::chrono::seconds stall_limit{0};
  bool stall_dump_only = false;  // --on-stall dump
  // --restart no|on-failure|on-stall and --max-restarts (restart.hpp).
  std::string restart = "no";
  int max_restarts = 3;
  // --health-cmd CMD / --health-url URL (as curl on rank 0's host), every
  // --health-interval seconds: a failure is a stall.
  std::optional<std::string> health_cmd, health_url;
  std::chrono::seconds health_interval{10};
  bool preflight = true;
  // --agent: where distkit-agent is installed on the hosts
  // ("none": nowhere, use distlaunch's own copy); unset: PATH, this
  // distlaunch's own directory, /opt/homebrew/bin, /usr/local/bin, the
  // first found. After it, the copy in the host's cache.
  std::optional<std::string> agent;
  bool accept_new_host_keys = false;
  std::chrono::milliseconds connect_timeout{10000};
  // --launcher ssh|srun (slurm.hpp); unset: srun inside a Slurm allocation.
  std::optional<std::string> launcher;
};

}  // namespace distkit::launch
