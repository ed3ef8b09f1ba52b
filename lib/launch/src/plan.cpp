// Building the launch plan: ranks onto hosts, then each backend's rank
// environment exactly as mlx.launch gives it (SPEC §3), plus distkit's own
// variables. Pure; the address resolver is injected so tests need no DNS.
#include "distkit/launch/plan.hpp"

#include <algorithm>
#include <map>

#include "distkit/hostfile/host_list.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::launch {

using hostfile::Backend;
using hostfile::Host;

namespace {

// "K=V" -> (K, V); throws UsageError naming where the entry came from.
std::pair<std::string, std::string> parse_env_entry(const std::string& entry,
                                                    std::string_view subject) {
  auto eq = entry.find('=');
  std::string key = entry.substr(0, eq);
  if (eq == std::string::npos || key.empty() || !is_word(key))
    throw UsageError(std::string(subject),
                     "'" + entry + "' is not KEY=VALUE with a key of [A-Za-z0-9_]",
                     "write it as NAME=value");
  return {key, entry.substr(eq + 1)};
}

std::string address_of(const Host& h, const AddressResolver& resolve, std::string_view why) {
  if (!h.ips.empty()) return h.ips.front();
  if (auto a = resolve ? resolve(h.ssh) : std::nullopt; a && !a->empty()) return *a;
  throw UsageError(h.ssh, "no address known for this host (needed " + std::string(why) + ")",
                   "add \"ips\" to its hostfile entry, set HostName in ssh_config, or "
                   "make the name resolvable");
}

// `items` as Python's json.dumps writes a list, "[a, b]", each by `item`: the
// ring address list and the rdma matrix byte for byte (the files MLX reads).
template <typename T, typename F>
std::string json_list(const std::vector<T>& items, F item) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + item(items[i]);
  return out + "]";
}

std::string rdma_entry_json(const hostfile::RdmaEntry& e) {
  if (std::holds_alternative<std::monostate>(e)) return "null";
  if (auto* s = std::get_if<std::string>(&e)) return json_string(*s);
  return json_list(std::get<std::vector<std::string>>(e), json_string);
}

// Ring: every (host, ip, connection) gets the next port; rank r listens on
// its own entries and connects to rank r+1's.
std::vector<std::vector<std::string>> ring_addresses(const std::vector<Host>& hosts,
                                                     const LaunchOptions& o,
                                                     const AddressResolver& resolve) {
  std::vector<std::vector<std::string>> out;
  long port = o.starting_port;
  for (const auto& h : hosts) {
    std::vector<std::string> ips = h.ips;
    if (ips.empty()) ips.push_back(address_of(h, resolve, "for the ring backend"));
    std::vector<std::string> node;
    for (const auto& ip : ips)
      for (int c = 0; c < o.connections_per_ip; ++c) {
        if (port > 65535)
          throw UsageError("--starting-port", "the ring needs ports past 65535",
                           "choose a lower starting port");
        bool v6 = ip.find(':') != std::string::npos;
        node.push_back((v6 ? "[" + ip + "]" : ip) + ":" + std::to_string(port++));
      }
    out.push_back(std::move(node));
  }
  return out;
}

void add_backend_env(Plan& plan, const std::vector<Host>& hosts, const LaunchOptions& o,
                     const AddressResolver& resolve) {
  const int n = static_cast<int>(plan.ranks.size());
  switch (plan.backend) {
    case Backend::none:
    case Backend::ring: {
      if (n < 2) return;  // mlx.launch gives a single rank no ring file
      auto addresses = ring_addresses(hosts, o, resolve);
      auto json = std::make_shared<const std::string>(
          json_list(addresses, [](const auto& node) { return json_list(node, json_string); }));
      for (auto& r : plan.ranks) {
        r.files.push_back({"MLX_HOSTFILE", "ring.json", json});
        for (const auto& a : addresses[static_cast<size_t>(r.rank)])
          r.ports.push_back(std::stoi(a.substr(a.rfind(':') + 1)));
      }
      return;
    }
    case Backend::jaccl:
    case Backend::jaccl_ring: {
      std::string coord = address_of(hosts.front(), resolve, "as the jaccl coordinator") + ":" +
                          std::to_string(o.starting_port);
      auto matrix = std::make_shared<const std::string>(
          json_list(hosts, [](const Host& h) { return json_list(h.rdma, rdma_entry_json); }));
      plan.ranks.front().ports.push_back(o.starting_port);
      for (auto& r : plan.ranks) {
        r.env.emplace_back("MLX_JACCL_COORDINATOR", coord);
        if (plan.backend == Backend::jaccl_ring) r.env.emplace_back("MLX_JACCL_RING", "1");
        r.files.push_back({"MLX_IBV_DEVICES", "ibv_devices.json", matrix});
      }
      return;
    }
    case Backend::nccl: {
      std::string ip = address_of(hosts.front(), resolve, "as the NCCL host");
      plan.ranks.front().ports.push_back(o.nccl_port);
      for (auto& r : plan.ranks) {
        r.env.emplace_back("NCCL_HOST_IP", ip);
        r.env.emplace_back("NCCL_PORT", std::to_string(o.nccl_port));
        r.env.emplace_back("MLX_WORLD_SIZE", std::to_string(n));
        r.env.emplace_back("CUDA_VISIBLE_DEVICES", std::to_string(r.local_rank));
      }
      return;
    }
    case Backend::mpi:
      return;  // mpirun gives the rank its identity
  }
}

bool has_key(const EnvList& env, std::string_view key) {
  return std::any_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == key; });
}

// What mlx.launch adds after the user's variables (they are in `extra`),
// and distkit's PYTHONUNBUFFERED and PYTHONFAULTHANDLER.
void add_launcher_env(EnvList& extra, Backend backend, const LaunchOptions& o) {
  // MLX #3618: the launcher's terminal size, unless COLUMNS is set.
  if (o.terminal.columns > 0 && !has_key(extra, "COLUMNS")) {
    extra.emplace_back("COLUMNS", std::to_string(o.terminal.columns));
    extra.emplace_back("LINES", std::to_string(o.terminal.lines));
  }
  // A rank's stdout is a pipe: without this, Python holds print() output
  // until the buffer fills or the rank ends. The user's choice wins.
  if (!has_key(extra, "PYTHONUNBUFFERED"))
    extra.emplace_back("PYTHONUNBUFFERED", o.python_unbuffered.value_or("1"));
  // A Python rank stopped on a stall or --timeout without py-spy on its
  // host prints its Python frames (stacks.cpp sends SIGABRT); free until
  // then. Not under mpirun, whose ranks distkit does not stop.
  if (backend != Backend::mpi && !has_key(extra, "PYTHONFAULTHANDLER"))
    extra.emplace_back("PYTHONFAULTHANDLER", "1");
  if (o.verbose && backend == Backend::ring) extra.emplace_back("MLX_RING_VERBOSE", "1");
  if (o.verbose && backend == Backend::nccl) extra.emplace_back("NCCL_DEBUG", "INFO");
}

// Under srun each host agent is a one-task job step, so a rank would
// inherit that step's SLURM_PROCID 0, SLURM_NTASKS 1, ...: the job's task
// variables instead, as `srun -n WORLD` sets them for its tasks (srun(1),
// OUTPUT ENVIRONMENT VARIABLES), for programs that find their rank there.
void add_slurm_task_env(RankSpec& r, const Plan& plan, const std::string& world) {
  auto node = std::find(plan.hosts.begin(), plan.hosts.end(), r.host) - plan.hosts.begin();
  r.env.emplace_back("SLURM_PROCID", std::to_string(r.rank));
  r.env.emplace_back("SLURM_LOCALID", std::to_string(r.local_rank));
  r.env.emplace_back("SLURM_NODEID", std::to_string(node));
  r.env.emplace_back("SLURM_NTASKS", world);
  r.env.emplace_back("SLURM_NPROCS", world);
  r.env.emplace_back("SLURM_NNODES", std::to_string(plan.hosts.size()));
}

void add_common_env(Plan& plan, const hostfile::Hostfile& hf, const LaunchOptions& o) {
  EnvList extra;
  for (const auto& e : hf.envs) extra.push_back(parse_env_entry(e, "hostfile envs"));
  for (const auto& e : o.env) extra.push_back(parse_env_entry(e, "--env"));
  add_launcher_env(extra, plan.backend, o);
  const std::string world = std::to_string(plan.ranks.size());
  for (auto& r : plan.ranks) {
    if (plan.backend != Backend::mpi) r.env.emplace_back("MLX_RANK", std::to_string(r.rank));
    r.env.emplace_back("DISTKIT_RANK", std::to_string(r.rank));
    r.env.emplace_back("DISTKIT_WORLD_SIZE", world);
    r.env.emplace_back("DISTKIT_LOCAL_RANK", std::to_string(r.local_rank));
    r.env.emplace_back("DISTKIT_LOCAL_SIZE", std::to_string(r.local_size));
    r.env.emplace_back("DISTKIT_HOST", r.host);
    r.env.emplace_back("DISTKIT_JOB_ID", plan.job_id);
    if (o.launcher == "srun" && plan.backend != Backend::mpi) add_slurm_task_env(r, plan, world);
    r.env.insert(r.env.end(), extra.begin(), extra.end());
  }
}

// The numbers' ranges are the CLI's (whole_number).
void check_options(const LaunchOptions& o) {
  if (o.command.empty())
    throw UsageError("command", "no command given",
                     "put it after --, e.g. distlaunch -n 2 -- hostname");
}

}  // namespace

const std::string& DataFile::text() const {
  static const std::string empty;
  return content ? *content : empty;
}

Backend choose_backend(const LaunchOptions& options, const hostfile::Hostfile& hf) {
  const Backend b = options.backend ? hostfile::parse_backend(*options.backend, "--backend")
                                    : hf.backend.value_or(Backend::ring);
  return b == Backend::none ? Backend::ring : b;
}

Plan build_plan(const hostfile::Hostfile& hf, const LaunchOptions& options,
                const AddressResolver& resolve, const std::string& job_id) {
  check_options(options);
  if (hf.hosts.empty())
    throw UsageError("hosts", "no hosts to run on", "give --hosts, --hostfile or -n");
  Plan plan;
  plan.backend = choose_backend(options, hf);
  plan.command = options.command;
  if (options.python) plan.command.insert(plan.command.begin(), *options.python);
  plan.cwd = options.cwd;
  plan.job_id = job_id;
  std::vector<Host> hosts = hostfile::repeat_hosts(hf.hosts, options.repeat_hosts.value_or(1));
  hostfile::require_jaccl_links(hosts, plan.backend,
                                options.hostfile ? options.hostfile->string() : "--hosts");
  std::map<std::string, int> per_host;
  for (const auto& h : hosts) per_host[h.ssh]++;
  std::map<std::string, int> seen;
  for (size_t i = 0; i < hosts.size(); ++i) {
    RankSpec r;
    r.rank = static_cast<int>(i);
    r.host = hosts[i].ssh;
    r.local_rank = seen[r.host]++;
    r.local_size = per_host[r.host];
    if (r.local_rank == 0) plan.hosts.push_back(r.host);
    plan.ranks.push_back(std::move(r));
  }
  add_backend_env(plan, hosts, options, resolve);
  add_common_env(plan, hf, options);
  return plan;
}

TerminalSize terminal_size(const char* columns, const char* lines,
                           std::optional<TerminalSize> tty) {
  // Python's int(): optional blanks around an optional sign and digits.
  auto number = [](const char* text) {
    std::string_view t = text ? trim(text) : std::string_view();
    size_t at = !t.empty() && (t[0] == '+' || t[0] == '-') ? 1 : 0;
    int v = static_cast<int>(parse_digits(t.substr(at), 9).value_or(0));
    return at && t[0] == '-' ? -v : v;
  };
  const TerminalSize fallback = tty.value_or(TerminalSize{});
  TerminalSize size{number(columns), number(lines)};
  if (size.columns <= 0) size.columns = fallback.columns;
  if (size.lines <= 0) size.lines = fallback.lines;
  return size;
}

std::vector<std::string> env_warnings(const hostfile::Hostfile& hf, const LaunchOptions& o,
                                      const std::string& hostfile_subject) {
  std::vector<std::string> out;
  for (size_t i = 0; i < hf.envs.size(); ++i)
    if (auto advice = hostfile::env_advice(hf.envs[i]); !advice.empty())
      out.push_back(hostfile_subject + ": envs[" + std::to_string(i) + "]: " + advice);
  for (const auto& e : o.env)
    if (auto advice = hostfile::env_advice(e); !advice.empty()) out.push_back("--env: " + advice);
  return out;
}

EnvList effective_env(const RankSpec& rank, const std::string& dir) {
  EnvList out;
  auto set = [&out](const std::string& k, const std::string& v) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& kv) { return kv.first == k; });
    if (it == out.end())
      out.emplace_back(k, v);
    else
      it->second = v;
  };
  for (const auto& f : rank.files) set(f.env, dir + "/" + f.name);
  for (const auto& [k, v] : rank.env) set(k, v);
  return out;
}

}  // namespace distkit::launch
