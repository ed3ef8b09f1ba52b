// LocalExecutor against real /bin/sh processes: exit codes, signals, stdin,
// large output, timeouts and abort killing the whole process group.
#include "distkit/ssh/local_executor.hpp"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "catch.hpp"

using namespace std::chrono_literals;
using distkit::ssh::LocalExecutor;

namespace {

// A temp file path unique to this test process.
std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("distkit_ssh_test_" + std::to_string(::getpid()) + "_" + name);
}

// Alive and not a zombie (orphans may wait for a reaper that is slow or absent
// in a container, and kill(pid, 0) succeeds on zombies).
bool pid_alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::string cmd = "ps -o stat= -p " + std::to_string(pid);
  FILE* f = ::popen(cmd.c_str(), "r");
  if (!f) return true;
  char buf[32] = {};
  bool zombie = std::fgets(buf, sizeof buf, f) && buf[0] == 'Z';
  ::pclose(f);
  return !zombie;
}

pid_t read_pid(const std::filesystem::path& p) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(p);
    pid_t pid = 0;
    if (in >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(10ms);
  }
  return 0;
}

}  // namespace

TEST_CASE("a local command reports its exit status and both output streams") {
  LocalExecutor ex;
  auto r = ex.run("echo out; echo err >&2; exit 3");
  CHECK(r.out == "out\n");
  CHECK(r.err == "err\n");
  CHECK(r.exit.exit_status == 3);
  CHECK(r.exit.signal == 0);
  CHECK(r.exit.error.empty());
  CHECK_FALSE(r.exit.ok());
  CHECK(r.exit.shell_status() == 3);
}

TEST_CASE("a successful local command is ok with status 0") {
  LocalExecutor ex("127.0.0.1");
  auto r = ex.run("true");
  CHECK(r.exit.ok());
  CHECK(ex.host() == "127.0.0.1");
  CHECK(ex.is_local());
}

TEST_CASE("a command killed by a signal reports the signal, not a status") {
  LocalExecutor ex;
  auto r = ex.run("kill -TERM $$");
  CHECK(r.exit.signal == SIGTERM);
  CHECK(r.exit.exit_status == -1);
  CHECK(r.exit.shell_status() == 128 + SIGTERM);
}

TEST_CASE("an unknown command exits 127 like a shell") {
  LocalExecutor ex;
  auto r = ex.run("distkit-no-such-command-xyz");
  CHECK(r.exit.exit_status == 127);
  CHECK(r.err.find("not found") != std::string::npos);
}

TEST_CASE("stdin data reaches the command and is closed after") {
  LocalExecutor ex;
  distkit::ssh::RunOptions opt;
  opt.stdin_data = "line one\nline two\n";
  auto r = ex.run("cat; echo done", opt);
  CHECK(r.out == "line one\nline two\ndone\n");
  CHECK(r.exit.ok());
}

TEST_CASE("more than a MiB each of stdin, stdout and stderr flows without deadlock") {
  LocalExecutor ex;
  distkit::ssh::RunOptions opt;
  opt.stdin_data = std::string(3 << 20, 'x');
  opt.timeout = 20s;
  auto r = ex.run("cat; head -c 2000000 /dev/zero >&2", opt);
  CHECK(r.exit.ok());
  CHECK(r.out.size() == (3u << 20));
  CHECK(r.err.size() == 2000000u);
}

TEST_CASE("a command that ignores its stdin does not hang the writer") {
  LocalExecutor ex;
  distkit::ssh::RunOptions opt;
  opt.stdin_data = std::string(4 << 20, 'y');
  opt.timeout = 20s;
  auto r = ex.run("exit 0", opt);
  CHECK(r.exit.ok());
}

TEST_CASE("a timeout kills the whole process group including grandchildren") {
  LocalExecutor ex;
  auto pidfile = temp_path("grandchild");
  std::filesystem::remove(pidfile);
  distkit::ssh::RunOptions opt;
  opt.timeout = 300ms;
  auto t0 = std::chrono::steady_clock::now();
  auto r = ex.run("sh -c 'sleep 30 & echo $! > " + pidfile.string() + "; wait'", opt);
  auto elapsed = std::chrono::steady_clock::now() - t0;
  CHECK(r.exit.error == "timed out after 300 ms");
  CHECK(r.exit.shell_status() == 255);
  CHECK(elapsed < 5s);
  pid_t grandchild = read_pid(pidfile);
  REQUIRE(grandchild > 0);
  for (int i = 0; i < 100 && pid_alive(grandchild); ++i) std::this_thread::sleep_for(10ms);
  CHECK_FALSE(pid_alive(grandchild));
  std::filesystem::remove(pidfile);
}

TEST_CASE("a started command streams output to the handlers and exits once") {
  LocalExecutor ex;
  std::string out, err;
  std::atomic<int> exits{0};
  distkit::ssh::ExitInfo info;
  distkit::ssh::StreamHandlers h;
  h.on_stdout = [&](std::string_view s) { out.append(s); };
  h.on_stderr = [&](std::string_view s) { err.append(s); };
  h.on_exit = [&](const distkit::ssh::ExitInfo& e) {
    info = e;
    ++exits;
  };
  auto cmd = ex.start("read a; echo \"got $a\"; echo warn >&2; exit 4", std::move(h));
  cmd->write_stdin("hello\n");
  cmd->close_stdin();
  cmd->wait();
  CHECK(out == "got hello\n");
  CHECK(err == "warn\n");
  CHECK(info.exit_status == 4);
  CHECK(exits == 1);
}

TEST_CASE("abort kills a started command's process group and still reports exit") {
  LocalExecutor ex;
  auto pidfile = temp_path("abort_child");
  std::filesystem::remove(pidfile);
  distkit::ssh::ExitInfo info;
  distkit::ssh::StreamHandlers h;
  h.on_exit = [&](const distkit::ssh::ExitInfo& e) { info = e; };
  auto cmd = ex.start("sleep 30 & echo $! > " + pidfile.string() + "; wait", std::move(h));
  pid_t child = read_pid(pidfile);
  REQUIRE(child > 0);
  cmd->abort();
  cmd->wait();
  CHECK(info.signal == SIGKILL);
  for (int i = 0; i < 100 && pid_alive(child); ++i) std::this_thread::sleep_for(10ms);
  CHECK_FALSE(pid_alive(child));
  std::filesystem::remove(pidfile);
}

TEST_CASE("a background child holding stdout open does not block completion") {
  LocalExecutor ex;
  distkit::ssh::RunOptions opt;
  opt.timeout = 10s;
  auto t0 = std::chrono::steady_clock::now();
  auto r = ex.run("sleep 3 & echo started", opt);
  CHECK(std::chrono::steady_clock::now() - t0 < 2s);
  CHECK(r.out == "started\n");
  CHECK(r.exit.ok());
  ex.run("kill $(pgrep -f '^sleep 3$') 2>/dev/null; true");
}

TEST_CASE("many commands run concurrently on one local executor") {
  LocalExecutor ex;
  std::vector<std::thread> threads;
  std::atomic<int> good{0};
  for (int i = 0; i < 16; ++i)
    threads.emplace_back([&, i] {
      auto r = ex.run("echo " + std::to_string(i));
      if (r.out == std::to_string(i) + "\n" && r.exit.ok()) ++good;
    });
  for (auto& t : threads) t.join();
  CHECK(good == 16);
}
