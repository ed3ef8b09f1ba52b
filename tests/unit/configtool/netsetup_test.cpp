// distconfig's network-setup flags, in-process on the shared scenarios:
// printed commands and emitted scripts, --links files, and the usage
// errors of the new flags (exit 2, one line).
#include <algorithm>
#include <filesystem>
#include <fstream>

#include "catch.hpp"
#include "run_tool.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace distkit::test;

namespace {

std::string last_line(const std::string& s) {
  std::string t = s.substr(0, s.size() - 1);
  return t.substr(t.rfind('\n') + 1);
}

const std::string kPair = (data_dir() / "scenarios" / "pair2_m3ultra_double_cable").string();

}  // namespace

TEST_CASE(
    "without --auto-setup the commands are printed per host and --emit-scripts writes scripts") {
  fs::path d = temp_dir("emit");
  auto r = run_tool({"--hosts", "studio-a,studio-b", "--from-probes", kPair, "--emit-scripts",
                     (d / "s").string(), "--output", (d / "hf.json").string()});
  CHECK(r.status == 0);
  CHECK(r.err.find("Setup for studio-b\n==================\nsudo ifconfig bridge0 deletem en3\n") !=
        std::string::npos);
  CHECK(r.err.find("sudo ifconfig en3 inet 10.213.0.2 netmask 255.255.255.252 alias\n") !=
        std::string::npos);
  for (const char* f :
       {"studio-a.setup.sh", "studio-a.teardown.sh", "studio-a.verify.sh", "studio-b.setup.sh"})
    CHECK(fs::file_size(d / "s" / f) > 100);
  std::ifstream in(d / "s" / "studio-b.setup.sh");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("ns_addr en3 10.213.0.2 30 255.255.255.252\n") != std::string::npos);
  CHECK(text.find("STATE=/var/db/distkit/netsetup.state\n") != std::string::npos);
  fs::remove_all(d);
}

TEST_CASE("an --emit-scripts directory that cannot be made is refused before the hostfile") {
  fs::path d = temp_dir("emitbad");
  std::ofstream(d / "file") << "x";
  auto r = run_tool({"--hosts", "studio-a,studio-b", "--from-probes", kPair, "--emit-scripts",
                     (d / "file").string()});
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  // The reason in parentheses is the C++ library's: not pinned.
  CHECK(r.err.rfind("distconfig: error: " + (d / "file").string() +
                        ": cannot create the script directory (",
                    0) == 0);
  CHECK(r.err.ends_with("); choose a writable --emit-scripts directory\n"));
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  fs::remove_all(d);
}

TEST_CASE("--links declares the cables: a ring hostfile over the planned addresses") {
  fs::path d = temp_dir("links");
  std::ofstream(d / "cables") << "studio-a:en3 studio-b:en3\nstudio-b:en4 studio-a:en4\n";
  auto r = run_tool(
      {"--hosts", "studio-a,studio-b", "--from-probes", kPair, "--links", (d / "cables").string()});
  CHECK(r.status == 0);
  CHECK(r.out.find("\"backend\": \"ring\"") != std::string::npos);
  CHECK(r.out.find("\"10.213.0.2\"") != std::string::npos);
  CHECK(r.out.find("\"10.213.0.6\"") != std::string::npos);
  std::ofstream(d / "bad") << "studio-a:en3 studio-c:en3\n";
  auto bad = run_tool(
      {"--hosts", "studio-a,studio-b", "--from-probes", kPair, "--links", (d / "bad").string()});
  CHECK(bad.status == 2);
  CHECK(last_line(bad.err) ==
        "distconfig: error: " + (d / "bad").string() +
            ": host \"studio-c\" is not in the host list; did you mean \"studio-a\"?");
  fs::remove_all(d);
}

TEST_CASE("network-setup usage errors exit 2 with one line") {
  auto err = [](std::vector<std::string> args) {
    args.insert(args.end(), {"--hosts", "studio-a,studio-b", "--from-probes", kPair});
    auto r = run_tool(args);
    CHECK(r.status == 2);
    return last_line(r.err);
  };
  CHECK(err({"--subnet", "10.1.2.3/8"}) ==
        "distconfig: error: --subnet: \"10.1.2.3/8\" has host bits set; did you mean 10.0.0.0/8?");
  CHECK(err({"--persist"}) ==
        "distconfig: error: --persist: only applies with --auto-setup or --emit-scripts; add "
        "--auto-setup");
  CHECK(err({"--teardown", "--verify"}) ==
        "distconfig: error: --teardown: cannot be combined with --auto-setup, --verify or "
        "--persist; run the teardown on its own");
  CHECK(err({"--over", "ethernet", "--links", "x"}) ==
        "distconfig: error: --links: network setup is for point-to-point cables; use --over "
        "thunderbolt (the default) with --links for named interfaces");
  CHECK(err({"--state-file", "state-%h"}) ==
        "distconfig: error: --state-file: \"state-%h\" is not an absolute path; give one from /, "
        "e.g. /var/lib/distkit/netsetup-%h.state");
  CHECK(err({"--state-file", "~/state"}).rfind("distconfig: error: --state-file: ", 0) == 0);
  CHECK(err({"--verify-port", "0"}) ==
        "distconfig: error: --verify-port: 0 is out of range; give a whole number from 1 to "
        "65535; see distconfig --help");
  CHECK(err({"--links", "/nonexistent-distkit-links"})
            .rfind("distconfig: error: /nonexistent-distkit-links", 0) == 0);
}

TEST_CASE("--auto-setup over Ethernet is accepted, as by MLX, and has nothing to do") {
  auto r = run_tool({"--hosts", "127.0.0.1", "--over", "ethernet", "--auto-setup"});
  CHECK(r.status == 0);
  CHECK(r.err.find(
            "distconfig: note: --auto-setup: nothing to set up over Ethernet (the hosts' existing "
            "addresses are used)\n") != std::string::npos);
  CHECK(r.out.find("\"127.0.0.1\"") != std::string::npos);
}

TEST_CASE("--ignore-unreachable leaves out the cables of the hosts it leaves out") {
  fs::path d = temp_dir("links-unreachable");
  std::ofstream(d / "cables")
      << "studio-a:en3 studio-b:en3\nstudio-b:en4 ghost:en1\nghost:en2 studio-a:en4\n";
  auto r = run_tool({"--hosts", "studio-a,studio-b,ghost", "--from-probes", kPair, "--links",
                     (d / "cables").string(), "--ignore-unreachable"});
  CHECK(r.err.find("distconfig: warning: studio-b:en4 <-> ghost:en1: left out: a host is "
                   "unreachable\n") != std::string::npos);
  CHECK(r.err.find("distconfig: warning: ghost:en2 <-> studio-a:en4: left out: a host is "
                   "unreachable\n") != std::string::npos);
  CHECK(r.err.find("sudo ifconfig en3 inet 10.213.0.1 netmask 255.255.255.252 alias\n") !=
        std::string::npos);
  CHECK(r.err.find("en4 inet") == std::string::npos);
  fs::remove_all(d);
}
