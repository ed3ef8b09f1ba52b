// connect_all and resolve_hostname without a network: local names get a
// LocalExecutor, duplicates share one, ssh_config errors are usage errors.
#include "distkit/ssh/connect.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "catch.hpp"
#include "distkit/util/error.hpp"
#include "remote_executors.hpp"

namespace {

std::filesystem::path write_config(const std::string& name, const std::string& text) {
  auto p = std::filesystem::temp_directory_path() /
           ("distkit_connect_test_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p;
}

}  // namespace

TEST_CASE("local hosts get local executors, duplicates share one, order is kept") {
  auto cfg = write_config("empty", "");
  distkit::ssh::ConnectOptions o;
  o.ssh_config = cfg;
  auto c = distkit::ssh::connect_all({"localhost", "127.0.0.1", "localhost"}, o);
  REQUIRE(c.executors.size() == 3);
  CHECK(c.errors.empty());
  REQUIRE(c.executors[0]);
  CHECK(c.executors[0]->is_local());
  CHECK(c.executors[0]->host() == "localhost");
  CHECK(c.executors[1]->host() == "127.0.0.1");
  CHECK(c.executors[0] == c.executors[2]);
  CHECK(c.executors[1]->run("echo hi").out == "hi\n");
  std::filesystem::remove(cfg);
}

TEST_CASE("an alias whose HostName is this machine runs locally") {
  auto cfg = write_config("alias", "Host me\n  HostName 127.0.0.1\n");
  distkit::ssh::ConnectOptions o;
  o.ssh_config = cfg;
  auto c = distkit::ssh::connect_all({"me"}, o);
  REQUIRE(c.executors[0]);
  CHECK(c.executors[0]->is_local());
  CHECK(c.executors[0]->host() == "me");
  std::filesystem::remove(cfg);
}

TEST_CASE("user@host matches Host blocks by the name part") {
  auto cfg = write_config("userat", "Host me\n  HostName 127.0.0.1\n");
  distkit::ssh::ConnectOptions o;
  o.ssh_config = cfg;
  auto c = distkit::ssh::connect_all({"admin@me"}, o);
  REQUIRE(c.executors[0]);
  CHECK(c.executors[0]->is_local());
  CHECK(c.executors[0]->host() == "admin@me");
  std::filesystem::remove(cfg);
}

TEST_CASE("an unresolvable host is collected as that host's error, the others connect") {
  auto cfg = write_config("ghost", "Host ghost\n  HostName distkit-no-such-host.invalid\n");
  distkit::ssh::ConnectOptions o;
  o.ssh_config = cfg;
  auto c = distkit::ssh::connect_all({"ghost", "localhost"}, o);
  CHECK_FALSE(c.executors[0]);
  CHECK(c.executors[1]);
  REQUIRE(c.errors.size() == 1);
  CHECK(c.errors[0].host == "ghost");
  CHECK(c.errors[0].kind == "unreachable");
  CHECK(c.errors[0].message.rfind("ghost: cannot resolve distkit-no-such-host.invalid: ", 0) == 0);
  CHECK(c.errors[0].message.find("; check the name or set HostName in ssh_config") !=
        std::string::npos);
  std::filesystem::remove(cfg);
}

TEST_CASE("a host under a Match exec block is connected by the system ssh, which evaluates it") {
  // The libssh2 path would say "cannot resolve ..."; the system ssh path ends
  // every failure with "check `ssh <host> true`", and ssh itself runs the
  // Match exec (here `false`, so the block never applies).
  auto cfg = write_config("matchexec",
                          "Match originalhost ghost exec false\n  Port 1\n"
                          "Host ghost\n  HostName distkit-no-such-host.invalid\n");
  distkit::ssh::ConnectOptions o;
  o.ssh_config = cfg;
  auto c = distkit::ssh::connect_all({"ghost", "localhost"}, o);
  CHECK_FALSE(c.executors[0]);
  CHECK(c.executors[1]);
  REQUIRE(c.errors.size() == 1);
  CHECK(c.errors[0].kind == "unreachable");
  CHECK(c.errors[0].message.rfind("ghost: ", 0) == 0);
  CHECK(c.errors[0].message.find("distkit-no-such-host.invalid") != std::string::npos);
  const std::string tail = "; check `ssh ghost true`";
  CHECK(c.errors[0].message.size() > tail.size());
  CHECK(c.errors[0].message.compare(c.errors[0].message.size() - tail.size(), tail.size(), tail) ==
        0);
  std::filesystem::remove(cfg);
}

TEST_CASE("resolve_hostname gives ssh_config's HostName, or nothing") {
  auto cfg =
      write_config("resolve", "Host studio*\n  HostName %h.lan\nHost mini\n  HostName 10.1.2.3\n");
  CHECK(distkit::ssh::resolve_hostname("mini", cfg) == "10.1.2.3");
  CHECK(distkit::ssh::resolve_hostname("studio2", cfg) == "studio2.lan");
  CHECK_FALSE(distkit::ssh::resolve_hostname("other", cfg).has_value());
  std::filesystem::remove(cfg);
}

TEST_CASE("DISTKIT_SSH_CONFIG is read when no file is named") {
  auto cfg = write_config("env", "Host viaenv\n  HostName 10.9.9.9\n");
  ::setenv("DISTKIT_SSH_CONFIG", cfg.c_str(), 1);
  CHECK(distkit::ssh::resolve_hostname("viaenv") == "10.9.9.9");
  ::unsetenv("DISTKIT_SSH_CONFIG");
  std::filesystem::remove(cfg);
}

TEST_CASE("a named ssh_config that is missing is a usage error") {
  distkit::ssh::ConnectOptions o;
  o.ssh_config = "/nonexistent/distkit/cfg";
  CHECK_THROWS_AS(distkit::ssh::connect_all({"localhost"}, o), distkit::UsageError);
}

TEST_CASE("a streamed system ssh that fails names its last line, past a long stderr") {
  // A stand-in ssh first on PATH: 10000 bytes of the command's stderr,
  // then ssh's own failure line, exit 255 (ssh's code for itself).
  auto dir = std::filesystem::temp_directory_path() /
             ("distkit_connect_test_" + std::to_string(::getpid()) + "_bin");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ssh") << "#!/bin/sh\n"
                                "i=0; while [ $i -lt 100 ]; do printf '%099d\\n' 0 >&2; "
                                "i=$((i + 1)); done\n"
                                "echo 'Connection to far closed by remote host.' >&2\n"
                                "exit 255\n";
  std::filesystem::permissions(dir / "ssh", std::filesystem::perms::owner_all);
  const std::string path = std::getenv("PATH");
  setenv("PATH", (dir.string() + ":" + path).c_str(), 1);
  distkit::ssh::detail::SystemSshExecutor ex("far", std::nullopt, {});
  distkit::ssh::ExitInfo ended;
  distkit::ssh::StreamHandlers h;
  h.on_exit = [&ended](const distkit::ssh::ExitInfo& e) { ended = e; };
  auto cmd = ex.start("true", std::move(h));
  cmd->close_stdin();
  cmd->wait();
  setenv("PATH", path.c_str(), 1);
  std::filesystem::remove_all(dir);
  CHECK(ended.error == "Connection to far closed by remote host.");
}
