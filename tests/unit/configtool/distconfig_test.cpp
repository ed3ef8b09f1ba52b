// distconfig end to end, in-process: the local quick start, unreachable
// hosts, saving and replaying probes, RDMA Recovery steps, usage errors,
// the readiness report.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "run_tool.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace distkit::test;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A copy of a scenario where `host` has RDMA disabled (ibv_devices header only).
fs::path scenario_without_rdma(const std::string& scenario, const std::string& host) {
  fs::path d = temp_dir("nordma");
  fs::copy(data_dir() / "scenarios" / scenario, d,
           fs::copy_options::overwrite_existing | fs::copy_options::recursive);
  for (auto& f : fs::directory_iterator(d))
    fs::permissions(f.path(), fs::perms::owner_all, fs::perm_options::add);
  std::ofstream(d / (host + ".ibv_devices.txt"), std::ios::trunc)
      << read_data("probe/ibv_devices_m5max_mbp_A_rdma_disabled_header_only.txt");
  return d;
}

const std::string kFour = "studio-a,studio-b,studio-c,studio-d";

}  // namespace

TEST_CASE("the quick start: 127.0.0.1 over ethernet gives a hostfile with 127.0.0.1") {
  fs::path d = temp_dir("local");
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--output-hostfile",
                     (d / "hf.json").string()});
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(
      slurp(d / "hf.json") ==
      "{\n    \"backend\": \"\",\n    \"envs\": [],\n    \"hosts\": [\n        {\n"
      "            \"ssh\": \"127.0.0.1\",\n            \"ips\": [\n                \"127.0.0.1\"\n"
      "            ],\n            \"rdma\": []\n        }\n    ]\n}");
  fs::remove_all(d);
}

TEST_CASE("without --output-hostfile the hostfile goes to stdout, with --env") {
  auto r =
      run_tool({"--hosts", "localhost", "--over", "ethernet", "--env", "A=1", "--env", "B_2=x"});
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["envs"] == nlohmann::json::array({"A=1", "B_2=x"}));
  CHECK(j["hosts"][0]["ips"][0] == "127.0.0.1");
}

TEST_CASE("an unreachable host is reported and stops the run") {
  auto r = run_tool({"--hosts", "127.0.0.1,gone", "--over", "ethernet"}, local_connect({"gone"}));
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "distconfig: error: gone: connection refused; is sshd running?\n"
        "distconfig: error: hosts: 1 host(s) unreachable; fix them or pass --ignore-unreachable "
        "to go on without them\n");
}

TEST_CASE("--ignore-unreachable goes on with the reachable hosts") {
  auto r = run_tool({"--hosts", "127.0.0.1,gone", "--over", "ethernet", "--ignore-unreachable"},
                    local_connect({"gone"}));
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["hosts"].size() == 1);
  CHECK(j["hosts"][0]["ssh"] == "127.0.0.1");
  CHECK(r.err.find("going on without the unreachable host(s)") != std::string::npos);
}

TEST_CASE("--save-probes then --from-probes replays the same hostfile without connecting") {
  fs::path d = temp_dir("save");
  auto live = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--save-probes", d.string()});
  REQUIRE(live.status == 0);
  CHECK(fs::exists(d / "127.0.0.1.probe"));
  auto no_connect = [](const std::vector<std::string>&,
                       const distkit::ssh::ConnectOptions&) -> distkit::ssh::Connections {
    throw std::logic_error("must not connect");
  };
  auto replay = run_tool(
      {"--hosts", "127.0.0.1", "--over", "ethernet", "--from-probes", d.string()}, no_connect);
  CHECK(replay.status == 0);
  CHECK(replay.out == live.out);
  fs::remove_all(d);
}

TEST_CASE("a --save-probes directory that cannot be made is refused before probing") {
  fs::path d = temp_dir("savebad");
  std::ofstream(d / "file") << "x";
  auto no_connect = [](const std::vector<std::string>&,
                       const distkit::ssh::ConnectOptions&) -> distkit::ssh::Connections {
    throw std::logic_error("must not connect");
  };
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--save-probes",
                     (d / "file" / "probes").string()},
                    no_connect);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  // The reason in parentheses is the C++ library's: not pinned.
  CHECK(r.err.rfind("distconfig: error: " + (d / "file" / "probes").string() +
                        ": cannot create the probe directory (",
                    0) == 0);
  CHECK(r.err.ends_with("); choose a writable --save-probes directory\n"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  fs::remove_all(d);
}

TEST_CASE("an --output-hostfile that cannot be written is refused before probing") {
  fs::path d = temp_dir("outbad");
  auto no_connect = [](const std::vector<std::string>&,
                       const distkit::ssh::ConnectOptions&) -> distkit::ssh::Connections {
    throw std::logic_error("must not connect");
  };
  auto run = [&](const std::string& out) {
    return run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--output-hostfile", out},
                    no_connect);
  };
  auto missing = run((d / "typo" / "hf.json").string());
  CHECK(missing.status == 2);
  CHECK(missing.err == "distconfig: error: --output-hostfile: no directory " +
                           (d / "typo").string() + " for " + (d / "typo" / "hf.json").string() +
                           "; create it, or give a path in an existing directory\n");
  auto dir = run(d.string());
  CHECK(dir.status == 2);
  CHECK(dir.err == "distconfig: error: --output-hostfile: " + d.string() +
                       " is a directory; give a file path inside it\n");
  auto empty = run("");
  CHECK(empty.status == 2);
  CHECK(empty.err == "distconfig: error: --output-hostfile: is empty; give a file path\n");
  fs::remove_all(d);
}

TEST_CASE("RDMA missing on one host: jaccl fails with Recovery steps for that host only") {
  fs::path d = scenario_without_rdma("mesh4_m3ultra_rdma", "studio-c");
  auto r = run_tool({"--hosts", kFour, "--backend", "jaccl", "--from-probes", d.string()});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("studio-c: RDMA is not enabled (missing rdma_en3, rdma_en4, rdma_en5)") !=
        std::string::npos);
  CHECK(r.err.find("  3. Run: rdma_ctl enable\n") != std::string::npos);
  CHECK(r.err.find("studio-a: RDMA") == std::string::npos);
  CHECK(r.err.find("studio-b: RDMA") == std::string::npos);
  CHECK(
      r.err.find("distconfig: error: jaccl: RDMA is not ready on the links jaccl needs; follow the "
                 "steps above, or use --backend ring\n") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("RDMA missing in automatic mode falls back to ring and says why") {
  // The reference treats any rdma_ token as enabled; we check the devices
  // of the links in use, and fall back instead of writing a broken jaccl file.
  fs::path d = scenario_without_rdma("mesh4_m3ultra_rdma", "studio-b");
  auto r = run_tool({"--hosts", kFour, "--from-probes", d.string()});
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["backend"] == "ring");
  CHECK(r.err.find("distconfig: note: RDMA is not available (studio-b: RDMA is not enabled "
                   "(missing rdma_en3, rdma_en4, rdma_en5)); using the ring backend over TCP\n") !=
        std::string::npos);
  CHECK(r.err.find("studio-b: RDMA is not enabled") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("usage errors exit 2 with one actionable line") {
  auto env = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--env", "BAD KEY=1"});
  CHECK(env.status == 2);
  CHECK(env.err.rfind("distconfig: error: --env", 0) == 0);
  auto be = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--backend", "jaccl"});
  CHECK(be.status == 2);
  CHECK(be.err ==
        "distconfig: error: --backend: jaccl needs --over thunderbolt (RDMA over its cables); "
        "use --backend ring over Ethernet, or --over thunderbolt\n");
  auto twice = run_tool({"--hosts", "a,b,a"});
  CHECK(twice.status == 2);
  CHECK(twice.err ==
        "distconfig: error: --hosts: \"a\" is listed twice (entries 1 and 3); list each host "
        "once\n");
  CHECK(run_tool({"--over", "wifi"}).status == 2);
  CHECK(run_tool({"--backend", "nccl"}).status == 2);
  auto missing = run_tool({"--hosts", "a", "--from-probes", "/nonexistent-distkit"});
  CHECK(missing.status == 2);
  CHECK(missing.err ==
        "distconfig: error: --from-probes: /nonexistent-distkit: no such directory; give the "
        "directory --save-probes wrote\n");
  fs::path f = temp_dir("fromfile") / "probe";
  std::ofstream(f) << "x";
  auto file = run_tool({"--hosts", "a", "--from-probes", f.string()});
  CHECK(file.status == 2);
  CHECK(file.err == "distconfig: error: --from-probes: " + f.string() +
                        " is not a directory; give the directory --save-probes wrote\n");
  // A directory without the host's probe is that host's failure (exit 1).
  auto none = run_tool({"--hosts", "a", "--from-probes", f.parent_path().string()});
  CHECK(none.status == 1);
  CHECK(none.err.rfind("distconfig: error: a: no saved probe in " + f.parent_path().string() + "\n",
                       0) == 0);
  fs::remove_all(f.parent_path());
}

TEST_CASE("--over ethernet --backend ring (an MLX user's TCP ring) writes a ring hostfile") {
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--backend", "ring"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["backend"] == "ring");
  CHECK(j["hosts"][0]["ips"] == nlohmann::json::array({"127.0.0.1"}));
  // A hostfile distlaunch's reader (parse and validate) accepts as it is.
  CHECK_NOTHROW(distkit::hostfile::parse(r.out, "out"));
}

TEST_CASE("--check over ethernet: the ring is ready on hosts with addresses, no cable needed") {
  // Three Macs with a Thunderbolt chain (no ring of cables), all on a LAN.
  auto dir = data_dir() / "scenarios" / "chain3_m3ultra_missing_cable";
  const std::string three = "studio-a,studio-b,studio-c";
  auto r = run_tool({"--hosts", three, "--over", "ethernet", "--backend", "ring", "--check",
                     "--from-probes", dir.string()});
  CHECK(r.status == 0);
  CHECK(r.out.find("\nring: ready\n") != std::string::npos);
  CHECK(r.out.find("\nethernet: ready\n") != std::string::npos);
  // Over Thunderbolt the same hosts have no ring.
  auto tb =
      run_tool({"--hosts", three, "--backend", "ring", "--check", "--from-probes", dir.string()});
  CHECK(tb.status == 1);
  CHECK(tb.out.find("\nring: not ready: no ring through all 3 hosts\n") != std::string::npos);
  // A host without an address is what keeps a ring over Ethernet from running.
  fs::path d = temp_dir("noaddr");
  fs::copy(dir, d, fs::copy_options::overwrite_existing | fs::copy_options::recursive);
  for (auto& f : fs::directory_iterator(d))
    fs::permissions(f.path(), fs::perms::owner_all, fs::perm_options::add);
  std::ofstream(d / "studio-b.ipconfig_getifaddr_en0.txt", std::ios::trunc) << "";
  auto none = run_tool({"--hosts", three, "--over", "ethernet", "--backend", "ring", "--check",
                        "--json", "--from-probes", d.string()});
  CHECK(none.status == 1);
  auto j = nlohmann::json::parse(none.out);
  CHECK(j["verdicts"]["ring"]["reason"] == "no address found for studio-b");
  CHECK(j["ready"] == false);
  fs::remove_all(d);
}

TEST_CASE("--hostfile listing a host twice (two ranks there) probes it once") {
  fs::path d = temp_dir("repeat");
  std::ofstream(d / "in.json") << R"([{"ssh": "127.0.0.1"}, {"ssh": "127.0.0.1"}])";
  auto r = run_tool({"--hostfile", (d / "in.json").string(), "--over", "ethernet"});
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["hosts"].size() == 1);
  fs::remove_all(d);
}

TEST_CASE("--env MLX_METAL_FAST_SYNCH=1 is written, with a warning") {
  auto r =
      run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--env", "MLX_METAL_FAST_SYNCH=1"});
  CHECK(r.status == 0);
  CHECK(r.err ==
        "distconfig: warning: --env: MLX_METAL_FAST_SYNCH=1 can wedge the GPU (MLX #3142, "
        "#4005); leave it unset, as MLX's docs now advise\n");
  CHECK(nlohmann::json::parse(r.out)["envs"][0] == "MLX_METAL_FAST_SYNCH=1");
}

TEST_CASE("--auto-setup, --verify and --teardown need the hosts, not saved probes") {
  auto dir = data_dir() / "scenarios" / "pair2_m3ultra_double_cable";
  for (const char* flag : {"--auto-setup", "--verify", "--teardown"}) {
    auto r = run_tool({"--hosts", "studio-a,studio-b", flag, "--from-probes", dir.string()});
    CHECK(r.status == 2);
    CHECK(r.err.substr(r.err.rfind("distconfig: error:")) ==
          "distconfig: error: " + std::string(flag) +
              ": needs the hosts themselves, not saved probes; drop --from-probes\n");
  }
}

TEST_CASE("--check --json gives verdicts per backend for scripts") {
  auto dir = data_dir() / "scenarios" / "ring4_m3ultra_rdma";
  auto r = run_tool({"--hosts", kFour, "--check", "--json", "--from-probes", dir.string()});
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["schema"] == "distkit.readiness/1");
  CHECK(j["verdicts"]["ring"]["ok"] == true);
  CHECK(j["verdicts"]["jaccl-ring"]["ok"] == true);
  CHECK(j["verdicts"]["jaccl"]["ok"] == false);
  CHECK(j["verdicts"]["jaccl"]["reason"] == "not a full mesh (2 pair(s) without a cable)");
  CHECK(j["links"].size() == 4);
  CHECK(j["hosts"][0]["management_address"] == "10.10.0.11");
  auto jaccl =
      run_tool({"--hosts", kFour, "--check", "--backend", "jaccl", "--from-probes", dir.string()});
  CHECK(jaccl.status == 1);
  CHECK(jaccl.out.find("jaccl: not ready: not a full mesh (2 pair(s) without a cable)\n") !=
        std::string::npos);
}

TEST_CASE("--check flags mismatched macOS builds") {
  fs::path d = temp_dir("builds");
  fs::copy(data_dir() / "scenarios" / "pair2_m3ultra_double_cable", d,
           fs::copy_options::overwrite_existing | fs::copy_options::recursive);
  std::ofstream(d / "studio-a.sw_vers.txt")
      << "ProductName:\t\tmacOS\nProductVersion:\t\t26.2\nBuildVersion:\t\t25C56\n";
  std::ofstream(d / "studio-b.sw_vers.txt")
      << "ProductName:\t\tmacOS\nProductVersion:\t\t26.3\nBuildVersion:\t\t25D60\n";
  auto r = run_tool({"--hosts", "studio-a,studio-b", "--check", "--from-probes", d.string()});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("warning: macOS builds differ (26.2 (25C56): studio-a; 26.3 (25D60): studio-b); "
                   "RDMA peers should run the same build\n") != std::string::npos);
  CHECK(r.out.find("macOS 26.2 (25C56)") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("--matrix prints the cable counts") {
  auto dir = data_dir() / "scenarios" / "pair2_m3ultra_double_cable";
  auto r = run_tool({"--hosts", "studio-a,studio-b", "--matrix", "--from-probes", dir.string()});
  CHECK(r.status == 0);
  CHECK(
      r.out ==
      "          studio-a  studio-b\nstudio-a         -         2\nstudio-b         2         -\n");
}

TEST_CASE("--check on this Linux machine over ethernet reports it ready") {
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--check"});
  CHECK(r.status == 0);
  CHECK(r.out.rfind("HOST ", 0) == 0);
  CHECK(r.out.find("\nethernet: ready\n") != std::string::npos);
  auto j = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--check", "--json"});
  auto doc = nlohmann::json::parse(j.out);
  CHECK(doc["hosts"][0]["kernel"] == "Linux");
  CHECK(doc["hosts"][0]["management_address"] == "127.0.0.1");
  CHECK(doc["ready"] == true);
}

TEST_CASE("--hostfile supplies the hosts; a missing one is a usage error") {
  fs::path d = temp_dir("hostfile");
  std::ofstream(d / "in.json") << R"([{"ssh": "127.0.0.1"}])";
  auto r = run_tool({"--hostfile", (d / "in.json").string(), "--over", "ethernet"});
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["hosts"][0]["ips"][0] == "127.0.0.1");
  auto missing = run_tool({"--hostfile", (d / "nope.json").string(), "--over", "ethernet"});
  CHECK(missing.status == 2);
  CHECK(missing.err.rfind("distconfig: error: " + (d / "nope.json").string() + ":", 0) == 0);
  fs::remove_all(d);
}

TEST_CASE("--format writes another launcher's hostfile, to stdout or atomically to a file") {
  auto mpi = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--format", "openmpi"});
  CHECK(mpi.status == 0);
  CHECK(mpi.out == "127.0.0.1 slots=1\n");
  fs::path d = temp_dir("format");
  auto hydra = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--format", "mpich",
                         "--output-hostfile", (d / "hosts").string()});
  CHECK(hydra.status == 0);
  CHECK(slurp(d / "hosts") == "127.0.0.1:1\n");
  fs::remove_all(d);
}

TEST_CASE("an unknown --format is a usage error with a suggestion") {
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--format", "openmp"});
  CHECK(r.status == 2);
  CHECK(r.err ==
        "distconfig: error: --format: unknown hostfile format \"openmp\"; did you mean "
        "\"openmpi\"?\n");
  CHECK(r.out.empty());
  auto far = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--format", "yaml"});
  CHECK(far.status == 2);
  CHECK(far.err ==
        "distconfig: error: --format: unknown hostfile format \"yaml\"; use one of "
        "mlx, openmpi, mpich, slurm, deepspeed\n");
}

namespace {
// The problem of `kind` about `subject` in a report's "problems", or null.
nlohmann::json problem_in(const nlohmann::json& report, const std::string& subject,
                          const std::string& kind) {
  for (const auto& p : report.at("problems"))
    if (p["subject"] == subject && p["kind"] == kind) return p;
  return nullptr;
}
}  // namespace

TEST_CASE("--check --json lists a missing cable and the hosts short of a ring as problems") {
  auto dir = data_dir() / "scenarios" / "chain3_m3ultra_missing_cable";
  const std::string three = "studio-a,studio-b,studio-c";
  auto r = run_tool({"--hosts", three, "--check", "--json", "--from-probes", dir.string()});
  CHECK(r.status == 1);
  auto j = nlohmann::json::parse(r.out);
  auto cable = problem_in(j, "studio-a <-> studio-c", "missing-cable");
  REQUIRE(cable.is_object());
  CHECK(cable["severity"] == "error");
  CHECK(cable["problem"] == "no cable between them");
  CHECK(cable["remedy"].get<std::string>().rfind("free ports on studio-a: Thunderbolt 1 (en2)",
                                                 0) == 0);
  CHECK(problem_in(j, "studio-a", "ring-gap")["severity"] == "error");
  CHECK(problem_in(j, "studio-c", "ring-gap").is_object());
  CHECK(problem_in(j, "studio-b", "ring-gap").is_null());
  // The same lines on stderr, in the one format.
  CHECK(r.err.find("distconfig: error: studio-a <-> studio-c: no cable between them; free ports on "
                   "studio-a: ") != std::string::npos);
  // Asked for the ring over Ethernet, the cables do not count.
  auto eth = run_tool({"--hosts", three, "--over", "ethernet", "--backend", "ring", "--check",
                       "--json", "--from-probes", dir.string()});
  CHECK(eth.status == 0);
  CHECK(nlohmann::json::parse(eth.out)["problems"] == nlohmann::json::array());
}

TEST_CASE("--check --json reports an unreachable host as a problem instead of stopping") {
  auto r = run_tool({"--hosts", "127.0.0.1,gone", "--over", "ethernet", "--check", "--json"},
                    local_connect({"gone"}));
  CHECK(r.status == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["ready"] == false);
  CHECK(j["hosts"].size() == 1);
  CHECK(problem_in(j, "gone", "unreachable") ==
        nlohmann::json{{"subject", "gone"},
                       {"kind", "unreachable"},
                       {"severity", "error"},
                       {"problem", "connection refused; is sshd running?"},
                       {"remedy", ""}});
  CHECK(r.err == "distconfig: error: gone: connection refused; is sshd running?\n");
  // --ignore-unreachable: a warning, and the check is about the others.
  auto ignored = run_tool({"--hosts", "127.0.0.1,gone", "--over", "ethernet", "--check", "--json",
                           "--ignore-unreachable"},
                          local_connect({"gone"}));
  CHECK(ignored.status == 0);
  auto k = nlohmann::json::parse(ignored.out);
  CHECK(k["ready"] == true);
  CHECK(problem_in(k, "gone", "unreachable")["severity"] == "warning");
  CHECK(problem_in(k, "--ignore-unreachable", "left-out")["severity"] == "warning");
}
