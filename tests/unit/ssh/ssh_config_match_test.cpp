// ssh_config Match blocks: the criteria evaluated here (all, host,
// originalhost, user, localuser, negation), the ones left to ssh(1) (exec
// and friends send the host to the system ssh binary), errors on bad
// Match lines, and the Include limits that keep a hostile config bounded.
#include "catch.hpp"
#include "distkit/ssh/ssh_config.hpp"
#include "distkit/util/error.hpp"

using distkit::ssh::SshConfig;

namespace {

SshConfig parse(const std::string& text) {
  return SshConfig::parse(text, "cfg", "/home/u");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const distkit::UsageError& e) {
    return std::string(e.what());
  }
  return "no error";
}

}  // namespace

TEST_CASE("Match host sees the HostName set before it, originalhost the name given") {
  auto cfg = parse(
      "Host short\n HostName real.example.org\n"
      "Match host *.example.org\n User by-hostname\n"
      "Match originalhost sh*\n Port 2201\n");
  auto h = cfg.lookup("short");
  CHECK(h.user == "by-hostname");
  CHECK(h.port == 2201);
  auto direct = cfg.lookup("other.example.org");
  CHECK(direct.user == "by-hostname");
  CHECK_FALSE(direct.port.has_value());
  CHECK_FALSE(cfg.lookup("else").user.has_value());
}

TEST_CASE("Match user sees user@host first, then User set before it, then the local user") {
  auto cfg = parse("Host viaconfig\n User admin\nMatch user admin,root\n Port 2222\n");
  CHECK(cfg.lookup("viaconfig", "alice").port == 2222);
  CHECK_FALSE(cfg.lookup("plain", "alice").port.has_value());
  CHECK(cfg.lookup("plain", "root").port == 2222);
  auto given = cfg.lookup("viaconfig", "alice", std::string("bob"));
  CHECK(given.user == "bob");
  CHECK_FALSE(given.port.has_value());
}

TEST_CASE("Match localuser, negation and several criteria that must all hold") {
  auto cfg = parse("Match localuser alice !originalhost *.lan\n IdentityFile ~/.ssh/alice\n");
  CHECK(cfg.lookup("gpu1", "alice").identity_files ==
        std::vector<std::string>{"/home/u/.ssh/alice"});
  CHECK(cfg.lookup("gpu1.lan", "alice").identity_files.empty());
  CHECK(cfg.lookup("gpu1", "bob").identity_files.empty());
}

TEST_CASE("Match all applies to every host and a later Host line ends the block") {
  auto cfg = parse("Match all\n ConnectTimeout 7\nHost a\n User only-a\n");
  CHECK(cfg.lookup("a").connect_timeout_s == 7);
  CHECK(cfg.lookup("b").connect_timeout_s == 7);
  CHECK_FALSE(cfg.lookup("b").user.has_value());
  auto ended = parse("Match originalhost zzz\n User matched\nHost *\n User plain\n");
  CHECK(ended.lookup("a").user == "plain");
}

TEST_CASE("Match exec sends the host to the system ssh without applying the block") {
  auto cfg = parse(
      "Match originalhost gpu* exec \"test -f /etc/vpn-up\"\n User via-vpn\n"
      "Host *\n User default\n");
  auto h = cfg.lookup("gpu3");
  CHECK(h.needs_system_ssh());
  CHECK(h.undecided_match == "Match exec at cfg line 1");
  CHECK(h.system_ssh_reason() == "Match exec at cfg line 1");
  CHECK(h.user == "default");
  // A decidable criterion that fails settles it: no system ssh needed.
  auto other = cfg.lookup("cpu1");
  CHECK_FALSE(other.needs_system_ssh());
  CHECK(other.system_ssh_reason().empty());
}

TEST_CASE("Match canonical, final and localnetwork are also left to ssh") {
  CHECK(parse("Match canonical\n User x\n").lookup("h").undecided_match ==
        "Match canonical at cfg line 1");
  CHECK(parse("Match final all\n User x\n").lookup("h").undecided_match ==
        "Match final at cfg line 1");
  CHECK(parse("Match !localnetwork 10.0.0.0/8\n User x\n").lookup("h").undecided_match ==
        "Match localnetwork at cfg line 1");
}

TEST_CASE("ProxyJump is named as the system ssh reason before any Match") {
  auto h = parse("Host j\n ProxyJump bastion\nMatch exec true\n User x\n").lookup("j");
  CHECK(h.system_ssh_reason() == "ProxyJump");
}

TEST_CASE("bad Match lines are config errors naming the line") {
  CHECK(error_of("Host a\nMatch hots a\n") ==
        "cfg line 2: unknown Match criterion 'hots'; use all, host, originalhost, user, "
        "localuser or exec");
  CHECK(error_of("Match host\n") ==
        "cfg line 1: 'Match host' needs an argument; fix or remove that line");
  CHECK(error_of("Match all host a\n") ==
        "cfg line 1: 'Match all' cannot be combined with other criteria; fix or remove that line");
  CHECK(error_of("Match\n") == "cfg line 1: 'Match' has no value; fix or remove that line");
}

TEST_CASE("Include stops at 16 levels and at 1024 files read") {
  auto self = [](const std::string&) {
    return std::vector<std::pair<std::string, std::string>>{
        {"/home/u/.ssh/loop", "Include loop\n"}};
  };
  try {
    SshConfig::parse("Include loop\n", "cfg", "/home/u", self);
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(
        std::string(e.what()) ==
        "/home/u/.ssh/loop line 1: Include nested deeper than 16 levels; fix or remove that line");
  }
  // l0 includes l1 twice, l1 includes l2 twice, ... (15 levels): 2^15 reads
  // without the cap, each level within the depth limit.
  auto fan = [](const std::string& pattern) {
    int level = std::stoi(pattern.substr(pattern.rfind('l') + 1));
    std::string next = "l" + std::to_string(level + 1);
    std::string text = level < 14 ? "Include " + next + " " + next + "\n" : "Port 1\n";
    return std::vector<std::pair<std::string, std::string>>{{pattern, text}};
  };
  try {
    SshConfig::parse("Include l0\n", "cfg", "/home/u", fan);
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "/home/u/.ssh/l13 line 1: Include reads more than 1024 files; fix or remove that line");
  }
}
