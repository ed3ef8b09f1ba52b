// The launch plan: ranks onto hosts, backend choice, distkit's own
// variables, and the exact errors for bad input.
#include "distkit/launch/plan.hpp"
#include "catch.hpp"
#include "distkit/hostfile/host_list.hpp"
#include "distkit/util/error.hpp"

using namespace distkit;
using namespace distkit::launch;
using hostfile::Backend;

namespace {

hostfile::Hostfile local_hostfile() {
  hostfile::Hostfile hf;
  hf.backend = Backend::none;
  hf.hosts.push_back({"127.0.0.1", {"127.0.0.1"}, {}});
  return hf;
}

LaunchOptions with_command(std::vector<std::string> cmd) {
  LaunchOptions o;
  o.command = std::move(cmd);
  return o;
}

std::string env_of(const RankSpec& r, const std::string& key) {
  std::string value = "<unset>";
  for (const auto& [k, v] : r.env)
    if (k == key) value = v;
  return value;
}

std::string usage_error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("repeat-hosts puts consecutive ranks on the same host", "[launch][plan]") {
  auto hf = local_hostfile();
  hf.hosts.push_back({"b", {"10.0.0.2"}, {}});
  auto o = with_command({"true"});
  o.repeat_hosts = 2;
  Plan p = build_plan(hf, o, nullptr, "j1");
  REQUIRE(p.ranks.size() == 4);
  CHECK(p.ranks[1].host == "127.0.0.1");
  CHECK(p.ranks[2].host == "b");
  CHECK(p.ranks[3].local_rank == 1);
  CHECK(p.ranks[3].local_size == 2);
  CHECK(p.hosts == std::vector<std::string>{"127.0.0.1", "b"});
}

TEST_CASE("four local ranks share one ip with consecutive ring ports", "[launch][plan]") {
  auto o = with_command({"true"});
  o.repeat_hosts = 4;
  Plan p = build_plan(local_hostfile(), o, nullptr, "j1");
  REQUIRE(p.ranks[2].files.size() == 1);
  CHECK(p.ranks[2].files[0].env == "MLX_HOSTFILE");
  CHECK(p.ranks[2].files[0].text() ==
        R"([["127.0.0.1:32323"], ["127.0.0.1:32324"], ["127.0.0.1:32325"], ["127.0.0.1:32326"]])");
  CHECK(env_of(p.ranks[2], "MLX_RANK") == "2");
}

TEST_CASE("every rank gets distkit's own variables", "[launch][plan]") {
  auto o = with_command({"true"});
  o.repeat_hosts = 3;
  Plan p = build_plan(local_hostfile(), o, nullptr, "job-42");
  const RankSpec& r = p.ranks[1];
  CHECK(env_of(r, "DISTKIT_RANK") == "1");
  CHECK(env_of(r, "DISTKIT_WORLD_SIZE") == "3");
  CHECK(env_of(r, "DISTKIT_LOCAL_RANK") == "1");
  CHECK(env_of(r, "DISTKIT_LOCAL_SIZE") == "3");
  CHECK(env_of(r, "DISTKIT_HOST") == "127.0.0.1");
  CHECK(env_of(r, "DISTKIT_JOB_ID") == "job-42");
}

TEST_CASE("a single rank gets no ring address file, as with mlx.launch", "[launch][plan]") {
  Plan p = build_plan(local_hostfile(), with_command({"true"}), nullptr, "j");
  CHECK(p.ranks[0].files.empty());
}

TEST_CASE("hostfile envs come before --env so the flag wins", "[launch][plan]") {
  auto hf = local_hostfile();
  hf.envs = {"A=hostfile", "B=1"};
  auto o = with_command({"true"});
  o.env = {"A=flag"};
  Plan p = build_plan(hf, o, nullptr, "j");
  auto env = effective_env(p.ranks[0], "/tmp/x");
  std::string a;
  for (const auto& [k, v] : env)
    if (k == "A") a = v;
  CHECK(a == "flag");
}

TEST_CASE("backend flag beats the hostfile, which beats the ring default", "[launch][plan]") {
  auto hf = local_hostfile();
  LaunchOptions o;
  CHECK(choose_backend(o, hf) == Backend::ring);
  hf.backend = Backend::jaccl;
  CHECK(choose_backend(o, hf) == Backend::jaccl);
  o.backend = "nccl";
  CHECK(choose_backend(o, hf) == Backend::nccl);
}

TEST_CASE("nccl ranks get the host ip, port, world size and a device per local rank",
          "[launch][plan]") {
  auto o = with_command({"true"});
  o.backend = "nccl";
  o.repeat_hosts = 2;
  o.nccl_port = 4000;
  Plan p = build_plan(local_hostfile(), o, nullptr, "j");
  CHECK(env_of(p.ranks[1], "NCCL_HOST_IP") == "127.0.0.1");
  CHECK(env_of(p.ranks[1], "NCCL_PORT") == "4000");
  CHECK(env_of(p.ranks[1], "MLX_WORLD_SIZE") == "2");
  CHECK(env_of(p.ranks[1], "CUDA_VISIBLE_DEVICES") == "1");
}

TEST_CASE("a host name without ips gets its address from the resolver", "[launch][plan]") {
  hostfile::Hostfile hf;
  hf.hosts = hostfile::parse_host_list("h1,10.0.0.9");
  CHECK(hf.hosts[1].ips == std::vector<std::string>{"10.0.0.9"});
  CHECK(hf.hosts[0].ips.empty());
  auto resolve = [](const std::string& h) -> std::optional<std::string> {
    if (h == "h1") return "10.0.0.1";
    return std::nullopt;
  };
  Plan p = build_plan(hf, with_command({"true"}), resolve, "j");
  CHECK(p.ranks[0].files[0].text() == R"([["10.0.0.1:32323"], ["10.0.0.9:32324"]])");
}

TEST_CASE("an unresolvable host name for the ring is an error naming it", "[launch][plan]") {
  hostfile::Hostfile hf;
  hf.hosts = hostfile::parse_host_list("nowhere,10.0.0.9");
  CHECK(usage_error_text([&] { build_plan(hf, with_command({"true"}), nullptr, "j"); }) ==
        "nowhere: no address known for this host (needed for the ring backend); add \"ips\" "
        "to its hostfile entry, set HostName in ssh_config, or make the name resolvable");
}

TEST_CASE("an --env entry that is not KEY=VALUE is refused", "[launch][plan]") {
  auto o = with_command({"true"});
  o.env = {"BAD-KEY=1"};
  CHECK(usage_error_text([&] { build_plan(local_hostfile(), o, nullptr, "j"); }) ==
        "--env: 'BAD-KEY=1' is not KEY=VALUE with a key of [A-Za-z0-9_]; write it as NAME=value");
}

TEST_CASE("a missing command is refused with a hint", "[launch][plan]") {
  CHECK(usage_error_text([&] { build_plan(local_hostfile(), LaunchOptions{}, nullptr, "j"); }) ==
        "command: no command given; put it after --, e.g. distlaunch -n 2 -- hostname");
}

TEST_CASE("--python goes before any command, as mlx.launch since MLX #4002", "[launch][plan]") {
  auto command_words = [](const std::vector<std::string>& command,
                          const std::optional<std::string>& python) {
    auto o = with_command(command);
    o.python = python;
    return build_plan(local_hostfile(), o, nullptr, "j").command;
  };
  CHECK(command_words({"-m", "mlx_lm.server", "--port", "8080"}, "/opt/py") ==
        std::vector<std::string>{"/opt/py", "-m", "mlx_lm.server", "--port", "8080"});
  CHECK(command_words({"job.py", "-x"}, "/opt/py") ==
        std::vector<std::string>{"/opt/py", "job.py", "-x"});
  // Without --python the command runs as given, a script too (MLX #3536).
  CHECK(command_words({"job.py", "-x"}, std::nullopt) == std::vector<std::string>{"job.py", "-x"});
  CHECK(command_words({"-m", "mlx_lm.server"}, "/opt/venv/bin/python") ==
        std::vector<std::string>{"/opt/venv/bin/python", "-m", "mlx_lm.server"});
}

TEST_CASE("--verbose turns on the backend's own logging, as mlx.launch does", "[launch][plan]") {
  auto o = with_command({"true"});
  o.repeat_hosts = 2;
  CHECK(env_of(build_plan(local_hostfile(), o, nullptr, "j").ranks[1], "MLX_RING_VERBOSE") ==
        "<unset>");
  o.verbose = true;
  Plan ring = build_plan(local_hostfile(), o, nullptr, "j");
  CHECK(env_of(ring.ranks[1], "MLX_RING_VERBOSE") == "1");
  CHECK(env_of(ring.ranks[1], "NCCL_DEBUG") == "<unset>");
  o.backend = "nccl";
  Plan nccl = build_plan(local_hostfile(), o, nullptr, "j");
  CHECK(env_of(nccl.ranks[0], "NCCL_DEBUG") == "INFO");
  CHECK(env_of(nccl.ranks[0], "MLX_RING_VERBOSE") == "<unset>");
}

TEST_CASE("the launcher's terminal size reaches the ranks unless COLUMNS is set (MLX #3618)",
          "[launch][plan]") {
  auto o = with_command({"true"});
  CHECK(env_of(build_plan(local_hostfile(), o, nullptr, "j").ranks[0], "COLUMNS") == "<unset>");
  o.terminal = {132, 43};
  Plan p = build_plan(local_hostfile(), o, nullptr, "j");
  CHECK(env_of(p.ranks[0], "COLUMNS") == "132");
  CHECK(env_of(p.ranks[0], "LINES") == "43");
  o.env = {"COLUMNS=80"};
  Plan mine = build_plan(local_hostfile(), o, nullptr, "j");
  CHECK(env_of(mine.ranks[0], "COLUMNS") == "80");
  CHECK(env_of(mine.ranks[0], "LINES") == "<unset>");
}

TEST_CASE("the terminal size is read as Python's shutil.get_terminal_size((0, 0))",
          "[launch][plan]") {
  CHECK(terminal_size(nullptr, nullptr, std::nullopt) == TerminalSize{0, 0});
  CHECK(terminal_size(nullptr, nullptr, TerminalSize{80, 24}) == TerminalSize{80, 24});
  CHECK(terminal_size("100", nullptr, TerminalSize{80, 24}) == TerminalSize{100, 24});
  CHECK(terminal_size(" 100 ", "50", std::nullopt) == TerminalSize{100, 50});
  CHECK(terminal_size("100", nullptr, std::nullopt) == TerminalSize{100, 0});
  CHECK(terminal_size("wide", "-3", TerminalSize{80, 24}) == TerminalSize{80, 24});
}

TEST_CASE("ranks get PYTHONUNBUFFERED=1 unless the user set it", "[launch][plan]") {
  auto o = with_command({"python3", "job.py"});
  CHECK(env_of(build_plan(local_hostfile(), o, nullptr, "j").ranks[0], "PYTHONUNBUFFERED") == "1");
  auto hf = local_hostfile();
  hf.envs = {"PYTHONUNBUFFERED=0"};
  Plan from_file = build_plan(hf, o, nullptr, "j");
  int seen = 0;
  for (const auto& [k, v] : from_file.ranks[0].env) seen += k == "PYTHONUNBUFFERED";
  CHECK(seen == 1);
  CHECK(env_of(from_file.ranks[0], "PYTHONUNBUFFERED") == "0");
  o.env = {"PYTHONUNBUFFERED="};
  CHECK(env_of(build_plan(local_hostfile(), o, nullptr, "j").ranks[0], "PYTHONUNBUFFERED") == "");
  o.env.clear();
  o.python_unbuffered = "";  // distlaunch's own environment sets it (empty: off)
  CHECK(env_of(build_plan(local_hostfile(), o, nullptr, "j").ranks[0], "PYTHONUNBUFFERED") == "");
}

TEST_CASE("MLX_METAL_FAST_SYNCH turned on is warned about, from the hostfile and --env",
          "[launch][plan]") {
  auto hf = local_hostfile();
  hf.envs = {"A=1", "MLX_METAL_FAST_SYNCH=1"};
  auto o = with_command({"true"});
  o.env = {"MLX_METAL_FAST_SYNCH=1", "MLX_METAL_FAST_SYNCH=0"};
  CHECK(env_warnings(hf, o, "hosts.json") ==
        std::vector<std::string>{
            "hosts.json: envs[1]: MLX_METAL_FAST_SYNCH=1 can wedge the GPU (MLX #3142, #4005); "
            "leave it unset, as MLX's docs now advise",
            "--env: MLX_METAL_FAST_SYNCH=1 can wedge the GPU (MLX #3142, #4005); leave it unset, "
            "as MLX's docs now advise"});
  // Only a warning: the ranks still get it.
  CHECK(env_of(build_plan(hf, o, nullptr, "j").ranks[0], "MLX_METAL_FAST_SYNCH") == "0");
}

namespace {
// Three hosts with a device for every pair (a full mesh).
hostfile::Hostfile jaccl_mesh3() {
  hostfile::Hostfile hf;
  hf.backend = Backend::jaccl;
  auto dev = [](const char* d) { return hostfile::RdmaEntry(std::string(d)); };
  hostfile::RdmaEntry none;
  hf.hosts = {{"a", {"10.0.0.1"}, {none, dev("rdma_en3"), dev("rdma_en4")}},
              {"b", {"10.0.0.2"}, {dev("rdma_en3"), none, dev("rdma_en4")}},
              {"c", {"10.0.0.3"}, {dev("rdma_en3"), dev("rdma_en4"), none}}};
  return hf;
}
}  // namespace

TEST_CASE("a jaccl hostfile missing a pair the backend uses is refused (MLX #4283, #4284)",
          "[launch][plan]") {
  auto o = with_command({"true"});
  o.hostfile = "hosts.json";
  CHECK_NOTHROW(build_plan(jaccl_mesh3(), o, nullptr, "j"));
  auto hf = jaccl_mesh3();
  hf.hosts[1].rdma[2] = std::monostate{};
  CHECK(usage_error_text([&] { build_plan(hf, o, nullptr, "j"); }) ==
        "hosts.json: hosts[1].rdma[2]: is null but backend \"jaccl\" (a full mesh) needs a device "
        "for every pair, b to c (hosts[2]) too; name the device b reaches it with, or regenerate "
        "the hostfile with distconfig (jaccl-ring or ring when a pair has no cable)");
  // As a ring a-b-c-a, b-c is one of its links: refused the same way.
  o.backend = "jaccl-ring";
  CHECK(usage_error_text([&] {
          build_plan(hf, o, nullptr, "j");
        }).rfind("hosts.json: hosts[1].rdma[2]: is null but backend \"jaccl-ring\"", 0) == 0);
  // --hosts gives no RDMA rows at all.
  hostfile::Hostfile names;
  names.hosts = hostfile::parse_host_list("10.0.0.1,10.0.0.2");
  auto by_name = with_command({"true"});
  by_name.backend = "jaccl";
  CHECK(usage_error_text([&] { build_plan(names, by_name, nullptr, "j"); }) ==
        "--hosts: hosts[0].rdma: has 0 entries but backend \"jaccl\" needs one per host; "
        "regenerate the hostfile with distconfig, or use the ring backend");
}

TEST_CASE("under srun each rank gets the job's Slurm task variables, not its step's",
          "[launch][plan]") {
  auto hf = local_hostfile();
  hf.hosts.push_back({"b", {"10.0.0.2"}, {}});
  auto o = with_command({"true"});
  o.repeat_hosts = 2;
  o.launcher = "srun";
  o.env = {"SLURM_NNODES=7"};  // the user's value still wins
  Plan p = build_plan(hf, o, nullptr, "j");
  const RankSpec& r = p.ranks[3];
  CHECK(env_of(r, "SLURM_PROCID") == "3");
  CHECK(env_of(r, "SLURM_LOCALID") == "1");
  CHECK(env_of(r, "SLURM_NODEID") == "1");
  CHECK(env_of(r, "SLURM_NTASKS") == "4");
  CHECK(env_of(r, "SLURM_NPROCS") == "4");
  CHECK(env_of(r, "SLURM_NNODES") == "7");
  CHECK(env_of(p.ranks[0], "SLURM_NODEID") == "0");
  o.launcher = "ssh";
  CHECK(env_of(build_plan(hf, o, nullptr, "j").ranks[3], "SLURM_PROCID") == "<unset>");
}
