// ssh_config parsing and lookup, OpenSSH semantics (first value wins).
#include "distkit/ssh/ssh_config.hpp"

#include <filesystem>

#include "catch.hpp"
#include "distkit/util/error.hpp"

using distkit::ssh::SshConfig;

namespace {
SshConfig parse(const std::string& text) {
  return SshConfig::parse(text, "cfg", "/home/u");
}
}  // namespace

TEST_CASE("a Host alias resolves HostName, User, Port and identity files") {
  auto cfg = parse(
      "Host studio1\n"
      "  HostName 10.0.0.11\n"
      "  User admin\n"
      "  Port 2222\n"
      "  IdentityFile ~/.ssh/id_ed25519\n"
      "  IdentityFile /keys/%h_%r\n");
  auto h = cfg.lookup("studio1", "me");
  CHECK(h.host_name == "10.0.0.11");
  CHECK(h.user == "admin");
  CHECK(h.port == 2222);
  REQUIRE(h.identity_files.size() == 2);
  CHECK(h.identity_files[0] == "/home/u/.ssh/id_ed25519");
  CHECK(h.identity_files[1] == "/keys/studio1_admin");
}

TEST_CASE("the first value that applies wins, later Host * defaults only fill gaps") {
  auto cfg = parse(
      "Host mac*\n  User first\n  Port 22\n"
      "Host macmini\n  User second\n"
      "Host *\n  User fallback\n  ConnectTimeout 5\n");
  auto h = cfg.lookup("macmini");
  CHECK(h.user == "first");
  CHECK(h.port == 22);
  CHECK(h.connect_timeout_s == 5);
  CHECK(cfg.lookup("other").user == "fallback");
}

TEST_CASE("HostName expands %h to the alias") {
  auto cfg = parse("Host *.lan\n  HostName %h.example.org\n");
  CHECK(cfg.lookup("m1.lan").host_name == "m1.lan.example.org");
  CHECK(cfg.lookup("m1").host_name == "m1");
}

TEST_CASE("negated patterns exclude a host from a block") {
  auto cfg = parse("Host * !bastion\n  User worker\nHost=bastion\n  User=jump\n");
  CHECK(cfg.lookup("h3").user == "worker");
  CHECK(cfg.lookup("bastion").user == "jump");
}

TEST_CASE("comma-separated and question-mark patterns match") {
  auto cfg = parse("Host h?,gpu*\n  Port 2200\n");
  CHECK(cfg.lookup("h7").port == 2200);
  CHECK(cfg.lookup("gpu12").port == 2200);
  CHECK_FALSE(cfg.lookup("h10").port.has_value());
}

TEST_CASE("keywords are case-insensitive and values may be quoted") {
  auto cfg = parse("HOST a\n  identityFILE \"/path with space/key\"\n  USER bob\n");
  auto h = cfg.lookup("a");
  REQUIRE(h.identity_files.size() == 1);
  CHECK(h.identity_files[0] == "/path with space/key");
  CHECK(h.user == "bob");
}

TEST_CASE("StrictHostKeyChecking ask is treated as yes since nothing prompts") {
  auto cfg =
      parse("Host a\n StrictHostKeyChecking ask\nHost b\n StrictHostKeyChecking accept-new\n");
  CHECK(cfg.lookup("a").strict_host_key_checking == "yes");
  CHECK(cfg.lookup("b").strict_host_key_checking == "accept-new");
  CHECK_FALSE(cfg.lookup("c").strict_host_key_checking.has_value());
}

TEST_CASE("UserKnownHostsFile takes several files, IdentitiesOnly and keepalives parse") {
  auto cfg = parse(
      "Host *\n UserKnownHostsFile ~/kh1 /etc/kh2\n IdentitiesOnly yes\n"
      " ServerAliveInterval 2\n ServerAliveCountMax 4\n");
  auto h = cfg.lookup("x");
  REQUIRE(h.known_hosts_files.size() == 2);
  CHECK(h.known_hosts_files[0] == "/home/u/kh1");
  CHECK(h.known_hosts_files[1] == "/etc/kh2");
  CHECK(h.identities_only);
  CHECK(h.server_alive_interval_s == 2);
  CHECK(h.server_alive_count_max == 4);
}

TEST_CASE("ProxyJump and ProxyCommand mark a host for the system ssh") {
  auto cfg = parse("Host inner\n ProxyJump bastion\nHost pc\n ProxyCommand nc %h %p\n");
  CHECK(cfg.lookup("inner").needs_system_ssh());
  CHECK(cfg.lookup("pc").proxy_command == "nc %h %p");
  CHECK_FALSE(cfg.lookup("plain").needs_system_ssh());
}

TEST_CASE("Include reads globbed files relative to ~/.ssh inside the current block") {
  std::vector<std::string> asked;
  auto reader = [&](const std::string& pattern) {
    asked.push_back(pattern);
    return std::vector<std::pair<std::string, std::string>>{
        {"/home/u/.ssh/conf.d/a", "User included\n"},
        {"/home/u/.ssh/conf.d/b", "Host other\n Port 7\n"}};
  };
  auto cfg = SshConfig::parse("Host h1\n Include conf.d/*\n Port 99\n", "cfg", "/home/u", reader);
  REQUIRE(asked.size() == 1);
  CHECK(asked[0] == "/home/u/.ssh/conf.d/*");
  auto h = cfg.lookup("h1");
  CHECK(h.user == "included");
  CHECK(h.port == 99);
  CHECK(cfg.lookup("other").port == 7);
  CHECK_FALSE(cfg.lookup("h2").user.has_value());
}

TEST_CASE("a non-numeric Port is a config error naming file and line") {
  try {
    parse("Host a\n\n  Port twenty\n");
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "cfg line 3: Port 'twenty' is not a non-negative number; fix or remove that line");
  }
}

TEST_CASE("an unknown StrictHostKeyChecking value is a config error") {
  CHECK_THROWS_AS(parse("StrictHostKeyChecking maybe\n"), distkit::UsageError);
}

TEST_CASE("a keyword without a value is a config error") {
  try {
    parse("Host a\nUser\n");
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) == "cfg line 2: 'User' has no value; fix or remove that line");
  }
}

TEST_CASE("loading a missing config file names the file and the remedy") {
  try {
    SshConfig::load("/nonexistent/distkit/ssh_config");
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "/nonexistent/distkit/ssh_config: cannot read this ssh config file; check the path "
          "given with --ssh-config or DISTKIT_SSH_CONFIG");
  }
}

TEST_CASE("a directory given as the config file is refused, not read as an empty config") {
  // --ssh-config ~/.ssh (the folder, not the file): it once ran on
  // without the user's Host blocks, and every host failed to resolve.
  const auto dir = std::filesystem::temp_directory_path();
  try {
    SshConfig::load(dir);
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) == dir.string() +
                                       ": cannot read this ssh config file; check the path given "
                                       "with --ssh-config or DISTKIT_SSH_CONFIG");
  }
}

TEST_CASE("wildcards match like OpenSSH patterns") {
  using distkit::ssh::wildcard_match;
  CHECK(wildcard_match("*", ""));
  CHECK(wildcard_match("a*c", "abbbc"));
  CHECK(wildcard_match("10.0.?.*", "10.0.1.23"));
  CHECK_FALSE(wildcard_match("a*c", "abd"));
  CHECK_FALSE(wildcard_match("h?", "h10"));
}
