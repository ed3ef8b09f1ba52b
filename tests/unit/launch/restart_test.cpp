// --restart's decision (restart.hpp): which endings start the job again,
// how many times, and the doubling wait.
#include "distkit/launch/restart.hpp"
#include "catch.hpp"

using namespace distkit::launch;
using namespace std::chrono_literals;

namespace {

JobResult ended(int code, bool stalled = false, bool interrupted = false) {
  JobResult r;
  r.exit_code = code;
  r.stalled = stalled;
  r.interrupted = interrupted;
  return r;
}

RestartSettings on(RestartOn what, int max = 3) {
  RestartSettings s;
  s.on = what;
  s.max_restarts = max;
  s.max_backoff = 5s;
  return s;
}

}  // namespace

TEST_CASE("on-failure restarts any failure, with waits of 1, 2, 4 s and then the cap",
          "[launch][restart]") {
  auto s = on(RestartOn::failure, 5);
  CHECK(restart_after(s, 0, ended(1)) == 1000ms);
  CHECK(restart_after(s, 1, ended(137)) == 2000ms);
  CHECK(restart_after(s, 2, ended(124, true)) == 4000ms);
  CHECK(restart_after(s, 3, ended(255)) == 5000ms);
  CHECK(restart_after(s, 4, ended(1)) == 5000ms);
  CHECK_FALSE(restart_after(s, 5, ended(1)));  // used up: the failure stands
}

TEST_CASE("no restart for a success, a user's signal, or without --restart", "[launch][restart]") {
  CHECK_FALSE(restart_after(on(RestartOn::failure), 0, ended(0)));
  CHECK_FALSE(restart_after(on(RestartOn::failure), 0, ended(130, false, true)));
  CHECK_FALSE(restart_after(on(RestartOn::no), 0, ended(1)));
  CHECK_FALSE(restart_after(on(RestartOn::failure, 0), 0, ended(1)));
}

TEST_CASE("on-stall restarts stalls and failed health checks only", "[launch][restart]") {
  CHECK(restart_after(on(RestartOn::stall), 0, ended(124, true)) == 1000ms);
  CHECK_FALSE(restart_after(on(RestartOn::stall), 0, ended(1)));
  // A rank that happens to exit 124 is not a stall.
  CHECK_FALSE(restart_after(on(RestartOn::stall), 0, ended(124)));
}
