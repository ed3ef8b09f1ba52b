// The open-file limit: a rank raises its soft limit for the sockets it
// needs (macOS shells start at 256, which 16 stripes to 15 peers fill), and
// a limit it cannot raise, or descriptors that run out anyway, fail at once
// with the remedy, not after the connect timeout. The hard-limit cases run
// in a child process: a lowered hard limit cannot be raised again.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "catch.hpp"
#include "harness.hpp"

using namespace distkit::rt;
using namespace distkit::rt::test;

namespace {

// Runs `body` in a child whose soft and hard limits are `limit`; the
// child's exit status: what `body` returns.
int in_child_with_limit(rlim_t limit, int (*body)()) {
  pid_t pid = fork();
  if (pid == 0) {
    rlimit r{limit, limit};
    _exit(setrlimit(RLIMIT_NOFILE, &r) == 0 ? body() : 90);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

// Rank 0 of two, each with 16 endpoints on ports nothing listens on: the
// checks come before any socket is opened or connected.
Config two_ranks_striped() {
  Config c;
  for (uint16_t first : {40000, 40100}) {
    std::vector<Endpoint> eps;
    for (uint16_t s = 0; s < 16; ++s)
      eps.push_back({"127.0.0.1", static_cast<uint16_t>(first + s)});
    c.endpoints.push_back(eps);
  }
  c.insecure = true;
  c.max_stripes = 16;
  c.connect_timeout = std::chrono::milliseconds(20000);
  return c;
}

// 0: Group::create failed at once with ErrorCode::system and the remedy.
int expect_fd_limit_error() {
  try {
    Group::create(two_ranks_striped());
  } catch (const Error& e) {
    const std::string what = e.what();
    return e.code() == ErrorCode::system && what.find("ulimit -n") != std::string::npos ? 0 : 2;
  }
  return 1;
}

}  // namespace

TEST_CASE("a rank raises the open-file soft limit its sockets need", "[runtime]") {
  rlimit saved{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &saved) == 0);
  REQUIRE((saved.rlim_max == RLIM_INFINITY || saved.rlim_max >= 1024));
  // 4 ranks x 8 stripes in this process: 128 sockets, over a soft limit of
  // 48 that each rank raises for its own 32.
  rlimit low = saved;
  low.rlim_cur = 48;
  REQUIRE(setrlimit(RLIMIT_NOFILE, &low) == 0);
  Config base = base_config(4, 8);
  auto results = run_ranks(base, [](Group& g) {
    std::vector<float> v(1000, 1.0f);
    g.all_reduce(v.data(), v.size(), DType::float32, ReduceOp::sum);
  });
  rlimit after{};
  getrlimit(RLIMIT_NOFILE, &after);
  setrlimit(RLIMIT_NOFILE, &saved);
  for (auto& r : results) CHECK(r.error == "");
  CHECK(after.rlim_cur > 48);
}

TEST_CASE("a rank whose hard open-file limit is too low fails at once naming it", "[runtime]") {
  // 32 sockets (16 listeners, 16 stripes to rank 1) do not fit in 40.
  CHECK(in_child_with_limit(40, expect_fd_limit_error) == 0);
}

TEST_CASE("descriptors that run out anyway fail at once with the remedy", "[runtime]") {
  // The limit fits the sockets, but the program has used every descriptor:
  // the first socket() fails with EMFILE, which is not waited on.
  CHECK(in_child_with_limit(96, [] {
          const int any = open("/dev/null", O_RDONLY);  // stdin may be closed
          while (dup(any) >= 0) {
          }
          return expect_fd_limit_error();
        }) == 0);
}
