// The supervisor with real local processes: exit codes, fail-fast teardown
// of whole process groups, stdin, output integrity, timeouts, signals. This
// is the wiring; each decision's every case (codes, texts, deadlines) is in
// supervisor_policy_test.cpp, with a fake clock.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>
#include <sstream>
#include <thread>

#include "catch.hpp"
#include "job_fixture.hpp"

using namespace distkit::launch;
using namespace distkit::launch::test;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("all ranks exiting 0 make the job exit 0 with every rank's output",
          "[launch][supervisor]") {
  auto run = run_local(local_plan(4, {"sh", "-c", "echo rank $MLX_RANK of $DISTKIT_WORLD_SIZE"}));
  CHECK(run.result.exit_code == 0);
  CHECK(run.result.reason.empty());
  auto lines = lines_of(run.out);
  std::set<std::string> got(lines.begin(), lines.end());
  CHECK(got == std::set<std::string>{"rank 0 of 4", "rank 1 of 4", "rank 2 of 4", "rank 3 of 4"});
}

TEST_CASE("a rank exiting 3 makes the job exit 3 and stops the others at once",
          "[launch][supervisor]") {
  auto plan = local_plan(4, {"sh", "-c", "if [ $MLX_RANK = 2 ]; then exit 3; fi; sleep 30"});
  auto run = run_local(plan);
  CHECK(run.result.exit_code == 3);
  CHECK(run.result.reason ==
        "rank 2 on localhost exited with status 3; stopping the other 3 running rank(s)");
  CHECK(run.err.find("distlaunch: error: " + run.result.reason + "\n") != std::string::npos);
  CHECK(run.seconds < 5);
  for (const auto& r : run.result.ranks)
    if (r.rank != 2) CHECK(r.stopped);
}

TEST_CASE("teardown leaves no process in any rank's process group", "[launch][supervisor]") {
  // Every rank leaves a background child in its group; rank 1 then fails.
  auto plan = local_plan(3, {"sh", "-c",
                             "sleep 60 & sleep 60 & if [ $MLX_RANK = 1 ]; then sleep 0.3; exit 5; "
                             "fi; wait"});
  CHECK_FALSE(group_gone(getpgrp()));  // the probe sees a live group
  auto run = run_local(plan);
  CHECK(run.result.exit_code == 5);
  for (const auto& r : run.result.ranks) {
    INFO("rank " << r.rank << " pid " << r.pid);
    REQUIRE(r.pid > 0);
    CHECK(group_gone(r.pid));
  }
}

TEST_CASE("a rank that ignores SIGTERM is killed after the grace period", "[launch][supervisor]") {
  auto plan = local_plan(2, {"sh", "-c",
                             "if [ $MLX_RANK = 0 ]; then exit 7; fi; trap '' TERM; "
                             "sleep 60 & wait; sleep 60"});
  auto run = run_local(plan);
  CHECK(run.result.exit_code == 7);
  CHECK(run.seconds < 4);
  CHECK(group_gone(run.result.ranks[1].pid));
}

TEST_CASE("a rank killed by a signal gives 128+N", "[launch][supervisor]") {
  auto run = run_local(local_plan(2, {"sh", "-c", "[ $MLX_RANK = 1 ] && kill -9 $$; sleep 30"}));
  CHECK(run.result.exit_code == 137);
}

TEST_CASE("stdin is broadcast to every rank", "[launch][supervisor]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::string data = "line one\nline two\n";
  REQUIRE(write(fds[1], data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  close(fds[1]);
  auto o = quiet_options();
  o.stdin_fd = fds[0];
  o.tag_output = true;
  auto run = run_local(local_plan(3, {"cat"}), o);
  close(fds[0]);
  CHECK(run.result.exit_code == 0);
  auto lines = lines_of(run.out);
  std::multiset<std::string> got(lines.begin(), lines.end());
  CHECK(got == std::multiset<std::string>{"[0 localhost] line one", "[0 localhost] line two",
                                          "[1 localhost] line one", "[1 localhost] line two",
                                          "[2 localhost] line one", "[2 localhost] line two"});
}

TEST_CASE("--stdin-rank gives stdin to that rank only", "[launch][supervisor]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  REQUIRE(write(fds[1], "x\n", 2) == 2);
  close(fds[1]);
  auto o = quiet_options();
  o.stdin_fd = fds[0];
  o.stdin_rank = 1;
  auto run = run_local(local_plan(3, {"sh", "-c", "echo $MLX_RANK:$(cat)"}), o);
  close(fds[0]);
  auto lines = lines_of(run.out);
  CHECK(std::set<std::string>(lines.begin(), lines.end()) ==
        std::set<std::string>{"0:", "1:x", "2:"});
}

TEST_CASE("binary stdin reaches the rank byte for byte", "[launch][supervisor]") {
  std::string data;
  for (int i = 0; i < 20000; ++i) data += static_cast<char>((i * 7919) & 0xff);
  char path[] = "/tmp/distlaunch-test-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  lseek(fd, 0, SEEK_SET);
  auto o = quiet_options();
  o.stdin_fd = fd;
  std::string got_path = std::string(path) + ".out";
  auto run = run_local(local_plan(1, {"sh", "-c", "cat > " + got_path}), o);
  close(fd);
  CHECK(run.result.exit_code == 0);
  std::FILE* f = std::fopen(got_path.c_str(), "rb");
  REQUIRE(f);
  std::string got = slurp(f);
  std::fclose(f);
  CHECK(got == data);
  unlink(path);
  unlink(got_path.c_str());
}

TEST_CASE("lines stay whole under heavy concurrent output", "[launch][supervisor]") {
  // 4 ranks x 3000 lines of 300 bytes, written in odd-sized pieces.
  auto plan =
      local_plan(4, {"sh", "-c",
                     "awk -v r=$MLX_RANK 'BEGIN { s = \"\"; for (i = 0; i < 296; i++) s = s r; "
                     "for (i = 0; i < 3000; i++) printf \"%s %03d\\n\", s, i % 1000 }'"});
  auto o = quiet_options();
  o.tag_output = true;
  auto run = run_local(plan, o);
  CHECK(run.result.exit_code == 0);
  auto lines = lines_of(run.out);
  CHECK(lines.size() == 12000);
  size_t bad = 0;
  for (const auto& l : lines) {
    // "[r localhost] " + 296 x r + " nnn"
    if (l.size() != 14 + 296 + 4) {
      ++bad;
      continue;
    }
    char r = l[1];
    if (l.compare(0, 14, std::string("[") + r + " localhost] ") != 0 ||
        l.compare(14, 296, std::string(296, r)) != 0)
      ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("the job timeout stops every rank and exits 1", "[launch][supervisor]") {
  auto o = quiet_options();
  o.policy.timeout = std::chrono::milliseconds(500);
  auto run = run_local(local_plan(2, {"sleep", "30"}), o);
  CHECK(run.result.exit_code == 1);
  CHECK(run.result.reason == "job: timed out after 0 s; stopping every rank");
  CHECK(run.seconds < 4);
}

TEST_CASE("ranks still running after the exit window are stopped", "[launch][supervisor]") {
  auto o = quiet_options();
  o.policy.exit_window = std::chrono::milliseconds(500);
  auto run = run_local(local_plan(2, {"sh", "-c", "[ $MLX_RANK = 0 ] && exit 0; sleep 30"}), o);
  CHECK(run.result.exit_code == 1);
  CHECK(run.result.ranks[1].stopped);
  CHECK(run.seconds < 4);
}

TEST_CASE("SIGINT is forwarded to the ranks and the job exits 130", "[launch][supervisor]") {
  auto o = quiet_options();
  o.handle_signals = true;
  std::thread poke([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    kill(getpid(), SIGINT);
  });
  auto run = run_local(local_plan(2, {"sleep", "30"}), o);
  poke.join();
  CHECK(run.result.exit_code == 130);
  CHECK(run.seconds < 4);
  CHECK(run.err.find("distlaunch: SIGINT: forwarded to every rank") != std::string::npos);
}

TEST_CASE("each rank's files and secret live in a temp dir removed at the end",
          "[launch][supervisor]") {
  auto plan = local_plan(2, {"sh", "-c",
                             "ls -l $DISTKIT_SECRET_FILE | cut -c1-10; cat $DISTKIT_SECRET_FILE; "
                             "dirname $MLX_HOSTFILE"});
  auto run = run_local(plan);
  REQUIRE(run.result.exit_code == 0);
  auto lines = lines_of(run.out);
  REQUIRE(lines.size() == 6);
  size_t dirs = 0;
  for (const auto& l : lines) {
    if (l.rfind("-rw", 0) == 0) CHECK(l == "-rw-------");
    if (l.rfind("/", 0) == 0) {
      ++dirs;
      struct stat st;
      CHECK(stat(l.c_str(), &st) != 0);
    }
  }
  CHECK(dirs == 2);
  CHECK(std::count(lines.begin(), lines.end(), "00ff") == 2);
}
