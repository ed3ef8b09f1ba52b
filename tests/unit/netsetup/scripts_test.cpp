// The rendered scripts and printed commands. The macOS commands are pinned
// against the reference tool's printed setup for the shared scenarios
// (same meaning: bridge0 down, each interface's address with a /30 mask,
// a host route to the peer over that interface); the whole scripts are
// checked by `sh -n`, and what each host's script adds to the templates
// (every line not already a line of templates/netsetup_*: the steps, the
// values) is pinned by golden files (tests/data/netsetup/golden;
// regenerate with DISTKIT_UPDATE_GOLDEN=1 and review the diff).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "catch.hpp"
#include "distkit/netsetup/scripts.hpp"
#include "distkit/util/strings.hpp"
#include "distkit/util/template.hpp"
#include "scenario.hpp"

using namespace distkit;
using namespace distkit::netsetup;
using distkit::test::read_data;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kFour{"studio-a", "studio-b", "studio-c", "studio-d"};

Plan scenario_plan(const std::string& scenario, const std::vector<std::string>& hosts,
                   const char* subnet) {
  auto t = test::scenario_topology(scenario, hosts);
  return plan_addresses(cables_from_topology(t), parse_subnet(subnet, "--subnet"), {});
}

// Our printed macOS commands read back into the reference's terms.
test::RefHost meaning_of(const std::string& commands) {
  test::RefHost h;
  std::istringstream in(commands);
  for (std::string line; std::getline(in, line);) {
    auto w = split_words(line);
    REQUIRE(w.size() >= 4);
    CHECK(w[0] == "sudo");
    if (w[1] == "ifconfig" && w[2] == "bridge0" && w[3] == "down") {
      h.bridge_down = true;
    } else if (w[1] == "ifconfig" && w.size() == 8 && w[3] == "inet" && w[5] == "netmask" &&
               w[7] == "alias") {
      h.steps.push_back({w[2], w[4], w[6], ""});
    } else if (w[1] == "route" && w.size() == 8 && w[3] == "add" && w[4] == "-host" &&
               w[6] == "-interface") {
      REQUIRE(!h.steps.empty());
      CHECK(h.steps.back().iface == w[7]);
      h.steps.back().peer = w[5] + "%" + w[7];
    } else {
      FAIL("unexpected command: " + line);
    }
  }
  return h;
}

void check_against_reference(const std::string& scenario, const std::vector<std::string>& hosts) {
  auto plan = scenario_plan(scenario, hosts, "192.168.0.0/16");
  auto want =
      test::parse_reference_setup(read_data("scenarios/" + scenario + "/expected_auto.stdout.txt"));
  SetupOptions o;
  o.bridge = BridgeMode::down;
  for (const auto& h : hosts) {
    INFO(scenario + " " + h);
    auto got = meaning_of(setup_commands({h, Os::macOS, "/s"}, plan, o));
    CHECK(got.bridge_down == want[h].bridge_down);
    auto w = want[h].steps, g = got.steps;
    auto by_iface = [](const test::RefStep& x, const test::RefStep& y) {
      return x.iface < y.iface;
    };
    std::sort(w.begin(), w.end(), by_iface);
    std::sort(g.begin(), g.end(), by_iface);
    CHECK(g == w);
  }
}

std::string read_file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string golden_path(const std::string& name) {
  return "netsetup/golden/" + name;
}

// The lines of `text` that are not lines of any netsetup template.
std::string novel_lines(const std::string& text) {
  std::set<std::string_view> known;
  for (const char* t : {"netsetup_common.sh", "netsetup_linux.sh", "netsetup_macos.sh",
                        "netsetup_verify.sh", "netsetup_persist.sh", "netsetup_state.sh",
                        "netsetup_launchd.plist", "netsetup_systemd.service", "capture_writer.sh"})
    for (auto l : split_lines(template_text(t))) known.insert(l);
  std::string out;
  for (auto l : split_lines(text))
    if (!known.count(l)) out += std::string(l) + "\n";
  return out;
}

void check_golden(const std::string& name, const std::string& full) {
  const std::string text = name.find(".txt") == std::string::npos ? novel_lines(full) : full;
  fs::path p = test::data_dir() / golden_path(name);
  if (std::getenv("DISTKIT_UPDATE_GOLDEN")) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  INFO(name);
  CHECK(read_data(golden_path(name)) == text);
}

// `sh -n` on the text: the scripts must at least parse as POSIX sh.
int sh_syntax(const std::string& text) {
  fs::path p =
      fs::temp_directory_path() / ("netsetup-syntax-" + std::to_string(::getpid()) + ".sh");
  std::ofstream(p, std::ios::binary) << text;
  int rc = std::system(("sh -n " + p.string() + " 2>/dev/null").c_str());
  fs::remove(p);
  return rc;
}

}  // namespace

TEST_CASE("macOS commands mean what the reference prints, for mesh, ring and double cable") {
  check_against_reference("mesh4_m3ultra_rdma", kFour);
  check_against_reference("ring4_m3ultra_rdma", kFour);
  check_against_reference("pair2_m3ultra_double_cable", {"studio-a", "studio-b"});
}

TEST_CASE("by default macOS takes each linked port out of bridge0 instead of bringing it down") {
  auto plan = scenario_plan("pair2_m3ultra_double_cable", {"studio-a", "studio-b"}, kDefaultSubnet);
  CHECK(setup_commands({"studio-a", Os::macOS, "/s"}, plan, {}) ==
        "sudo ifconfig bridge0 deletem en3\n"
        "sudo ifconfig bridge0 deletem en4\n"
        "sudo ifconfig en3 inet 10.213.0.1 netmask 255.255.255.252 alias\n"
        "sudo route -n add -host 10.213.0.2 -interface en3\n"
        "sudo ifconfig en4 inet 10.213.0.5 netmask 255.255.255.252 alias\n"
        "sudo route -n add -host 10.213.0.6 -interface en4\n");
}

TEST_CASE("Linux commands bring the link up, add the address and the host route") {
  std::vector<Cable> cables{{{"h1", "eth1"}, {"h2", "eth1"}}};
  auto plan = plan_addresses(cables, parse_subnet(kDefaultSubnet, "--subnet"), {});
  CHECK(setup_commands({"h2", Os::Linux, "/s"}, plan, {}) ==
        "sudo ip link set dev eth1 up\n"
        "sudo ip addr add 10.213.0.2/30 dev eth1\n"
        "sudo ip route replace 10.213.0.1/32 dev eth1\n");
}

TEST_CASE("values in scripts and commands are shell-quoted") {
  std::vector<Cable> cables{{{"h1", "e-1"}, {"h2", "eth1"}}};
  auto plan = plan_addresses(cables, parse_subnet(kDefaultSubnet, "--subnet"), {});
  HostTarget h{"h1", Os::Linux, "/var/tmp/it's state"};
  std::string s = setup_script(h, plan, {});
  CHECK(s.find("STATE='/var/tmp/it'\\''s state'\n") != std::string::npos);
  CHECK(sh_syntax(s) == 0);
}

TEST_CASE("the state file is in a root-owned directory unless --state-file says otherwise") {
  CHECK(state_file_for(Os::macOS, "a", "") == "/var/db/distkit/netsetup.state");
  CHECK(state_file_for(Os::Linux, "a", "") == "/var/lib/distkit/netsetup.state");
  CHECK(state_file_for(Os::Linux, "h1", "/tmp/x/%h.state") == "/tmp/x/h1.state");
}

TEST_CASE("golden scripts: macOS pair (setup, persist, teardown, verify) and Linux pair") {
  auto plan = scenario_plan("pair2_m3ultra_double_cable", {"studio-a", "studio-b"}, kDefaultSubnet);
  HostTarget mac{"studio-a", Os::macOS, state_file_for(Os::macOS, "studio-a", "")};
  SetupOptions persist;
  persist.persist = true;
  std::vector<std::pair<std::string, std::string>> scripts{
      {"macos_studio-a.setup.sh", setup_script(mac, plan, {})},
      {"macos_studio-a.persist.sh", setup_script(mac, plan, persist)},
      {"macos_studio-a.teardown.sh", teardown_script(mac)},
      {"macos_studio-a.verify.sh", verify_script(mac, plan, 32323)},
      {"macos_studio-a.commands.txt", setup_commands(mac, plan, {})}};
  std::vector<Cable> cables{{{"h1", "eth1"}, {"h2", "eth1"}}, {{"h2", "eth2"}, {"h1", "eth2"}}};
  auto lplan = plan_addresses(cables, parse_subnet(kDefaultSubnet, "--subnet"), {});
  HostTarget lin{"h1", Os::Linux, state_file_for(Os::Linux, "h1", "")};
  scripts.push_back({"linux_h1.setup.sh", setup_script(lin, lplan, {})});
  scripts.push_back({"linux_h1.persist.sh", setup_script(lin, lplan, persist)});
  scripts.push_back({"linux_h1.teardown.sh", teardown_script(lin)});
  scripts.push_back({"linux_h1.verify.sh", verify_script(lin, lplan, 32323)});
  scripts.push_back({"linux_h1.state.sh", state_script(lin)});
  for (const auto& [name, text] : scripts) {
    check_golden(name, text);
    if (name.find(".sh") != std::string::npos) CHECK(sh_syntax(text) == 0);
  }
}

TEST_CASE("teardown undoes known records, drops those already gone, keeps and names unknown ones") {
  if (std::system("command -v ip >/dev/null 2>&1") != 0) {
    WARN("no ip command here: not run");
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("netsetup-teardown-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path state = dir / "state", out = dir / "out", script = dir / "teardown.sh";
  std::ofstream(state)
      << "addr dkno0 10.213.9.1/30\nbridgeout bridge0 en3\nroute dkno0 10.213.9.2\n";
  std::ofstream(script) << teardown_script({"h1", Os::Linux, state.string()});
  int rc = std::system(("sh " + script.string() + " >" + out.string() + " 2>&1").c_str());
  CHECK(rc != 0);
  CHECK(read_file_text(out) ==
        "NS same no route to 10.213.9.2 via dkno0\n"
        "NS failed undo bridgeout bridge0 en3: unknown record \"bridgeout\" (written by another "
        "version or OS?)\n"
        "NS same address 10.213.9.1/30 not on dkno0\n"
        "NS end 1\n");
  CHECK(read_file_text(state) == "bridgeout bridge0 en3\n");
  fs::remove_all(dir);
}

namespace {

struct FakeMac {
  fs::path dir = fs::temp_directory_path() / ("netsetup-fakemac-" + std::to_string(::getpid()));
  FakeMac() {
    fs::remove_all(dir);
    fs::create_directories(dir / "fake");
    std::ofstream(dir / "fake" / "members") << "en2\nen3\nen4\n";
  }
  ~FakeMac() { fs::remove_all(dir); }
  // Runs `script` against the stand-in Mac; returns its "NS" output.
  std::string run(const std::string& script) {
    std::ofstream(dir / "run.sh") << "FAKE=" << (dir / "fake").string()
                                  << "\nDATA=" << (test::data_dir() / "netsetup").string() << "\n"
                                  << read_data("netsetup/macos_fake.sh") << script;
    std::system(
        ("sh " + (dir / "run.sh").string() + " >" + (dir / "out").string() + " 2>&1").c_str());
    return read_file_text(dir / "out");
  }
  std::string file(const std::string& name) { return read_file_text(dir / "fake" / name); }
};

}  // namespace

TEST_CASE(
    "the macOS scripts on a stand-in Mac: ports out of bridge0, addresses, routes; again: no "
    "change; teardown restores") {
  auto plan = scenario_plan("pair2_m3ultra_double_cable", {"studio-a", "studio-b"}, kDefaultSubnet);
  FakeMac mac;
  HostTarget h{"studio-a", Os::macOS, (mac.dir / "state").string()};
  CHECK(mac.run(setup_script(h, plan, {})) ==
        "NS changed took en3 out of bridge0\nNS changed took en4 out of bridge0\n"
        "NS changed address 10.213.0.1/30 on en3\nNS changed route to 10.213.0.2 via en3\n"
        "NS changed address 10.213.0.5/30 on en4\nNS changed route to 10.213.0.6 via en4\nNS end "
        "0\n");
  CHECK(mac.file("members") == "en2\n");
  CHECK(read_file_text(mac.dir / "state") ==
        "location Automatic\nbridgeout bridge0 en3\nbridgeout bridge0 en4\naddr en3 "
        "10.213.0.1/30\nroute en3 10.213.0.2\naddr en4 10.213.0.5/30\nroute en4 10.213.0.6\n");
  CHECK(mac.file("log") ==
        "ifconfig bridge0 deletem en3\nifconfig bridge0 deletem en4\n"
        "ifconfig en3 inet 10.213.0.1 netmask 255.255.255.252 alias\nroute -n add -host 10.213.0.2 "
        "-interface en3\n"
        "ifconfig en4 inet 10.213.0.5 netmask 255.255.255.252 alias\nroute -n add -host 10.213.0.6 "
        "-interface en4\n");
  CHECK(mac.run(setup_script(h, plan, {})) ==
        "NS same en3 not in bridge0\nNS same en4 not in bridge0\n"
        "NS same address 10.213.0.1/30 on en3\nNS same route to 10.213.0.2 via en3\n"
        "NS same address 10.213.0.5/30 on en4\nNS same route to 10.213.0.6 via en4\nNS end 0\n");
  CHECK(mac.run(teardown_script(h)) ==
        "NS changed removed route to 10.213.0.6 via en4\nNS changed removed address 10.213.0.5/30 "
        "from en4\n"
        "NS changed removed route to 10.213.0.2 via en3\nNS changed removed address 10.213.0.1/30 "
        "from en3\n"
        "NS changed put en4 back in bridge0\nNS changed put en3 back in bridge0\nNS end 0\n");
  CHECK(mac.file("members") == "en2\nen4\nen3\n");
  CHECK(mac.file("addr_en3").empty());
  CHECK(mac.file("routes").empty());
  CHECK_FALSE(fs::exists(mac.dir / "state"));
}

TEST_CASE(
    "the macOS script with --bridge-down brings bridge0 down once and teardown brings it up") {
  auto plan = scenario_plan("pair2_m3ultra_double_cable", {"studio-a", "studio-b"}, kDefaultSubnet);
  FakeMac mac;
  HostTarget h{"studio-a", Os::macOS, (mac.dir / "state").string()};
  SetupOptions down;
  down.bridge = BridgeMode::down;
  CHECK(mac.run(setup_script(h, plan, down))
            .rfind("NS changed bridge0 down\nNS changed address", 0) == 0);
  CHECK(fs::exists(mac.dir / "fake" / "bridge_down"));
  CHECK(mac.run(setup_script(h, plan, down)).rfind("NS same bridge0 down\n", 0) == 0);
  std::string t = mac.run(teardown_script(h));
  const std::string tail = "NS changed bridge0 up\nNS end 0\n";
  REQUIRE(t.size() > tail.size());
  CHECK(t.substr(t.size() - tail.size()) == tail);
  CHECK_FALSE(fs::exists(mac.dir / "fake" / "bridge_down"));
}

namespace {

// The macOS setup of a plan without links runs one step: ns_location.
// networksetup is a shell function here (functions win over the script's
// PATH, which puts /usr/sbin first: on a Mac the real one would answer)
// that prints ANSWER and exits with STATUS.
struct LocationHost {
  fs::path dir = fs::temp_directory_path() / ("netsetup-location-" + std::to_string(::getpid()));
  HostTarget h{"studio-a", Os::macOS, (dir / "state").string()};
  LocationHost() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~LocationHost() { fs::remove_all(dir); }
  std::string run(const std::string& script, const std::string& answer, int status = 0) {
    std::ofstream(dir / "answer", std::ios::binary) << answer;
    std::ofstream(dir / "run.sh")
        << "networksetup() {\n  [ \"$*\" = -getcurrentlocation ] || return 64\n  cat "
        << (dir / "answer").string() << "\n  return " << status << "\n}\n"
        << script;
    std::system(
        ("/bin/sh " + (dir / "run.sh").string() + " >" + (dir / "out").string() + " 2>&1").c_str());
    return read_file_text(dir / "out");
  }
  std::string state() { return read_file_text(dir / "state"); }
};

}  // namespace

TEST_CASE(
    "macOS setup records the network location once; another one replaces it; teardown "
    "drops it") {
  LocationHost mac;
  const std::string setup = setup_script(mac.h, Plan{}, {});
  const auto automatic = read_data("doctor/networksetup_getcurrentlocation_automatic.txt");
  CHECK(mac.run(setup, automatic) == "NS end 0\n");
  CHECK(mac.state() == "location Automatic\n");
  CHECK(mac.run(setup, automatic) == "NS end 0\n");
  CHECK(mac.state() == "location Automatic\n");
  // Another location, after a record of another kind: one location record.
  std::ofstream(mac.dir / "state") << "addr en3 10.213.0.1/30\nlocation Automatic\n";
  CHECK(mac.run(setup, "Lab  Thunderbolt\n") == "NS end 0\n");
  CHECK(mac.state() == "addr en3 10.213.0.1/30\nlocation Lab  Thunderbolt\n");
  // Teardown drops the location record (exactly, double space and all).
  std::ofstream(mac.dir / "state") << "location Lab  Thunderbolt\n";
  CHECK(mac.run(teardown_script(mac.h), "") == "NS end 0\n");
  CHECK_FALSE(fs::exists(mac.dir / "state"));
  // networksetup failing or printing nothing: no record, no failure.
  CHECK(mac.run(setup, "", 1) == "NS end 0\n");
  CHECK(mac.run(setup, "") == "NS end 0\n");
  CHECK(mac.run(setup, "Automatic\nexo\n") == "NS end 0\n");  // not one name
  CHECK_FALSE(fs::exists(mac.dir / "state"));
  // A failing networksetup keeps what an earlier setup recorded.
  std::ofstream(mac.dir / "state") << "location Automatic\n";
  CHECK(mac.run(setup, "Other\n", 1) == "NS end 0\n");
  CHECK(mac.state() == "location Automatic\n");
}
