// The preflight's host-agent decisions (preflight.cpp), with real processes
// on this machine: an installed distkit-agent becomes the agent; a host
// with none gets distlaunch's own copy in its cache when the system
// matches, and a one-line refusal naming the host and the fix when it does
// not; an agent of another protocol, or one from before the agent, is
// refused with the remedy, never passed over.
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

#include "catch.hpp"
#include "distkit/launch/agent_protocol.hpp"
#include "distkit/launch/preflight.hpp"
#include "distkit/version.hpp"
#include "job_fixture.hpp"

using namespace distkit;
using namespace distkit::launch;
namespace fs = std::filesystem;

namespace {

// A socket listening on port P+1 where P, bound as a rank binds it, was
// free too: returns {fd, P+1}. Picked below the kernel's ephemeral range
// (Linux 32768-60999), where no outgoing connection of a test running
// beside this one can take P meanwhile (CI lost a run to one when P came
// from the ephemeral range); spread by pid, as ports_lib.sh's blocks are.
std::pair<int, int> listen_after_free_port() {
  auto bound_socket = [](int port) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons(static_cast<uint16_t>(port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    return -1;
  };
  const int slots = (32000 - 20000) / 2;
  for (int k = 0; k < slots; ++k) {
    const int port = 20000 + 2 * ((static_cast<int>(::getpid()) * 7 + k) % slots);
    int probe = bound_socket(port);
    if (probe < 0) continue;
    int held = bound_socket(port + 1);
    ::close(probe);
    if (held >= 0 && ::listen(held, 1) == 0) return {held, port + 1};
    if (held >= 0) ::close(held);
  }
  FAIL("no two free ports in 20000-32000");
  return {-1, -1};
}

std::string this_system() {
  utsname u{};
  REQUIRE(uname(&u) == 0);
  return std::string(u.sysname) + " " + u.machine;
}

// A private cache dir for the copies (XDG_CACHE_HOME, as the copy script
// and the preflight read it), removed afterwards.
struct Cache {
  fs::path dir;
  Cache() {
    char tpl[] = "/tmp/distkit-agent-cache.XXXXXX";
    REQUIRE(mkdtemp(tpl));
    dir = tpl;
    setenv("XDG_CACHE_HOME", tpl, 1);
  }
  ~Cache() {
    unsetenv("XDG_CACHE_HOME");
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

struct Result {
  PreflightReport report;
  std::shared_ptr<AgentClient> agent;
};

Result preflight_with(const std::vector<std::string>& candidates,
                      const std::optional<AgentCopy>& copy,
                      const Plan& plan = test::local_plan(1, {"true"})) {
  Result r;
  r.agent = std::make_shared<AgentClient>(std::make_shared<ssh::LocalExecutor>("localhost"));
  r.report = run_preflight(plan, {r.agent}, true, false, candidates, copy, 5);
  return r;
}

// The report's problems of `kind` as the lines distlaunch prints (without
// its "distlaunch: error: " prefix); kind "" is every error of the checks
// (configuration problems).
std::vector<std::string> lines(const PreflightReport& report, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& p : report.problems)
    if (kind.empty() ? p.is_error() && p.code == ExitCode::usage && p.kind != "no-agent"
                     : p.kind == kind)
      out.push_back(describe(p));
  return out;
}

AgentCopy own_copy(const std::string& system) {
  return {DISTKIT_AGENT_PATH, system, std::string(kVersion) + "-test"};
}

// An executable sh script at `path`.
void script(const fs::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  fs::permissions(path, fs::perms::owner_all);
}

}  // namespace

TEST_CASE("an installed distkit-agent becomes the host agent", "[launch][preflight]") {
  Cache cache;
  auto r = preflight_with({DISTKIT_AGENT_PATH}, own_copy(this_system()));
  CHECK(lines(r.report, "no-agent").empty());
  CHECK(r.agent->running());
  const auto& f = r.report.hosts.at("localhost");
  CHECK(f.agent == DISTKIT_AGENT_PATH);
  CHECK(f.agent_hello == std::to_string(kAgentProtocol) + " " + kVersion);
  CHECK_FALSE(f.agent_copied);
  CHECK_FALSE(fs::exists(cache.dir / "distkit"));  // nothing copied
  auto run = test::run_on(test::local_plan(1, {"echo", "ran"}), test::quiet_options(), r.agent);
  CHECK(run.out == "ran\n");
}

TEST_CASE("a host without distkit-agent gets distlaunch's own copy, once", "[launch][preflight]") {
  Cache cache;
  auto copy = own_copy(this_system());
  // Another build's copy not written for 40 days, and one from today: the
  // copy removes the first only.
  const fs::path stale = cache.dir / "distkit" / "0.0.1-old",
                 fresh = cache.dir / "distkit" / "0.0.2-new";
  fs::create_directories(stale);
  fs::create_directories(fresh);
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(24 * 40));
  auto r = preflight_with({"/nonexistent/distkit-agent"}, copy);
  CHECK(lines(r.report, "no-agent").empty());
  REQUIRE(r.agent->running());
  const auto& f = r.report.hosts.at("localhost");
  const fs::path cached = cache.dir / "distkit" / copy.build / "distkit-agent";
  CHECK(f.agent == cached.string());
  CHECK(f.agent_copied);
  CHECK(fs::file_size(cached) == fs::file_size(DISTKIT_AGENT_PATH));
  for (const auto& dir : {cache.dir / "distkit", cache.dir / "distkit" / copy.build})
    CHECK((fs::status(dir).permissions() & fs::perms::all) == fs::perms::owner_all);
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(fresh));
  auto run = test::run_on(test::local_plan(1, {"echo", "ran"}), test::quiet_options(), r.agent);
  CHECK(run.out == "ran\n");
  // The next job finds the copy in the preflight: nothing copied again.
  auto again = preflight_with({"/nonexistent/distkit-agent"}, copy);
  CHECK(again.agent->running());
  CHECK(again.report.hosts.at("localhost").agent == cached.string());
  CHECK_FALSE(again.report.hosts.at("localhost").agent_copied);
}

TEST_CASE("a host the launcher's own copy cannot serve is refused in one line",
          "[launch][preflight]") {
  Cache cache;
  // As a launcher of another system sees an Apple Silicon Mac: there
  // `uname -s` prints Darwin and `uname -m` arm64 (uname(1); public how-tos).
  auto r = preflight_with({"/nonexistent/distkit-agent"}, own_copy("Darwin arm64"));
  CHECK_FALSE(r.agent->running());
  auto r_lines = lines(r.report, "no-agent");
  REQUIRE(r_lines.size() == 1);
  CHECK(r_lines[0] ==
        "localhost: no distkit-agent there, and it runs " + this_system() +
            ", this distlaunch Darwin arm64, so distlaunch's own cannot run there; install "
            "distkit on localhost (see README: hosts), or name its distkit-agent with "
            "--agent");
  CHECK_FALSE(fs::exists(cache.dir / "distkit"));
  // And with no copy to give at all.
  auto none = preflight_with({"/nonexistent/distkit-agent"}, std::nullopt);
  auto none_lines = lines(none.report, "no-agent");
  REQUIRE(none_lines.size() == 1);
  CHECK(none_lines[0] ==
        "localhost: no distkit-agent there, and none beside this distlaunch to copy; install "
        "distkit on localhost, or name its distkit-agent with --agent");
}

TEST_CASE("a copy the host cannot store is refused with what the host said",
          "[launch][preflight]") {
  Cache cache;
  // The cache's parent is a file: mkdir fails, and says why.
  const fs::path blocked = cache.dir / "not-a-dir";
  std::ofstream(blocked) << "x";
  setenv("XDG_CACHE_HOME", blocked.c_str(), 1);
  auto r = preflight_with({"/nonexistent/distkit-agent"}, own_copy(this_system()));
  CHECK_FALSE(r.agent->running());
  auto r_lines = lines(r.report, "no-agent");
  REQUIRE(r_lines.size() == 1);
  const std::string& line = r_lines[0];
  CHECK(line.rfind("localhost: copying distkit-agent there failed (status 1: mkdir: ", 0) == 0);
  CHECK(line.find("Not a directory") != std::string::npos);
  CHECK(line.find("); check the space and permissions of ~/.cache/distkit there, or install "
                  "distkit on localhost") != std::string::npos);
}

TEST_CASE("a copy the host stores but cannot run is refused saying so", "[launch][preflight]") {
  Cache cache;
  // The cache on a file system mounted noexec: the copy is stored, and the
  // locator, asked again, finds nothing it can run.
  struct NoExec {
    std::string dir;
    bool mounted = false;
    explicit NoExec(const fs::path& at) : dir(at.string()) {
      const std::string mount = "mount -t tmpfs -o noexec,size=64m tmpfs " + dir + " 2>/dev/null";
      mounted = std::system(mount.c_str()) == 0;
    }
    ~NoExec() {
      const std::string umount = "umount " + dir;
      if (mounted && std::system(umount.c_str()) != 0) WARN("could not unmount " + dir);
    }
  };
  NoExec noexec(cache.dir);
  if (!noexec.mounted) {
    WARN("cannot mount a noexec tmpfs here (needs root on Linux); not checked");
    return;
  }
  auto r = preflight_with({"/nonexistent/distkit-agent"}, own_copy(this_system()));
  CHECK_FALSE(r.agent->running());
  CHECK(lines(r.report, "no-agent") ==
        std::vector<std::string>{
            "localhost: distlaunch's own distkit-agent was copied to ~/.cache/distkit there, and "
            "cannot run from it (is that file system mounted noexec?); install distkit on "
            "localhost, or name its distkit-agent with --agent"});
}

TEST_CASE("an agent of another protocol is refused with the remedy, never passed over",
          "[launch][preflight]") {
  Cache cache;
  const fs::path dir = cache.dir;
  const std::string remedy = std::string("install distkit ") + kVersion +
                             " there, or pass --agent none to use distlaunch's own copy";
  // Says hello in protocol 1 (a distkit 0.0.9).
  script(dir / "other-protocol", "printf 'V 1 0.0.9\\n'; exec cat >/dev/null\n");
  auto other = preflight_with({(dir / "other-protocol").string()}, own_copy(this_system()));
  CHECK_FALSE(other.agent->running());
  auto other_lines = lines(other.report, "no-agent");
  REQUIRE(other_lines.size() == 1);
  CHECK(other_lines[0] == "localhost: " + (dir / "other-protocol").string() +
                              " speaks host-agent protocol 1 (distkit 0.0.9), this distlaunch " +
                              std::to_string(kAgentProtocol) + " (distkit " + kVersion + "); " +
                              remedy);
  // Refuses this protocol's command line (exit 126), as another version does.
  script(dir / "refuses", "echo 'distkit-agent: this is distkit 0.9.0' >&2; exit 126\n");
  auto refused = preflight_with({(dir / "refuses").string()}, own_copy(this_system()));
  auto refused_lines = lines(refused.report, "no-agent");
  REQUIRE(refused_lines.size() == 1);
  CHECK(refused_lines[0] == "localhost: " + (dir / "refuses").string() +
                                " did not start as a host agent of protocol " +
                                std::to_string(kAgentProtocol) +
                                " (exit 126: distkit-agent: this is distkit 0.9.0); " + remedy);
  // Says this protocol's hello, then ends without answering the checks.
  script(dir / "no-answer",
         "printf 'V " + std::to_string(kAgentProtocol) + " " + kVersion + "\\n'; exit 0\n");
  auto quiet = preflight_with({(dir / "no-answer").string()}, own_copy(this_system()));
  auto quiet_lines = lines(quiet.report, "no-agent");
  REQUIRE(quiet_lines.size() == 1);
  CHECK(quiet_lines[0] == "localhost: " + (dir / "no-answer").string() +
                              " did not start as a host agent of protocol " +
                              std::to_string(kAgentProtocol) +
                              " (it ended before answering the checks, exit 0); " + remedy);
  // None of them was passed over for a copy.
  CHECK_FALSE(fs::exists(cache.dir / "distkit"));
}

TEST_CASE("the agent's checks: a missing command or directory and a taken port are problems",
          "[launch][preflight]") {
  Cache cache;
  // One port held open here (listening): the rank that would bind it is named.
  auto [held, busy] = listen_after_free_port();
  hostfile::Hostfile hf;
  hf.hosts.push_back({"localhost", {"127.0.0.1"}, {}});
  LaunchOptions o;
  o.repeat_hosts = 2;
  o.starting_port = busy - 1;  // rank 1 listens on the held port
  o.command = {"no-such-command-here"};
  o.cwd = "/nonexistent-dir";
  auto plan = build_plan(hf, o, nullptr, "test-job");
  auto r = preflight_with({DISTKIT_AGENT_PATH}, std::nullopt, plan);
  ::close(held);
  CHECK(lines(r.report, "no-agent").empty());
  CHECK(r.agent->running());
  CHECK(lines(r.report, "") ==
        std::vector<std::string>{
            "localhost: command 'no-such-command-here' not found; install it there or give its "
            "full path",
            "localhost: directory '/nonexistent-dir' does not exist; create it there or fix --cwd",
            "localhost: port " + std::to_string(busy) +
                " (rank 1) is already in use; stop what holds it or pick another "
                "--starting-port"});
  CHECK_FALSE(r.report.hosts.at("localhost").os.empty());
}

TEST_CASE("a missing .py command is pointed at its interpreter (no automatic python)",
          "[launch][preflight]") {
  hostfile::Hostfile hf;
  hf.hosts.push_back({"localhost", {"127.0.0.1"}, {}});
  LaunchOptions o;
  o.command = {"train.py", "--epochs", "3"};
  auto r = preflight_with({DISTKIT_AGENT_PATH}, std::nullopt, build_plan(hf, o, nullptr, "j"));
  CHECK(lines(r.report, "") ==
        std::vector<std::string>{"localhost: command 'train.py' not found; run the script with "
                                 "its interpreter (python3 train.py, or --python PATH)"});
}
