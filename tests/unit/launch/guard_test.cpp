// The agent's guard (apps/agent/guard.hpp), as the agent uses it: when the
// agent's end of its pipe closes (the agent died), the groups it was told
// of get TERM, and KILL after their grace, and their temp dirs go; a group
// it was told is gone is left alone, since its pid may belong to someone
// else by then, and so is its dir.
#include "guard.hpp"  // apps/agent

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "catch.hpp"
#include "distkit/util/posix.hpp"

using namespace std::chrono;

namespace {

// A process group running `script`, once the script has said it is ready.
pid_t spawn_group(const std::string& script) {
  distkit::posix::Fd r, w;
  REQUIRE(distkit::posix::make_pipe(r, w));
  int err = 0;
  pid_t pid = distkit::posix::spawn_in_new_group({"sh", "-c", script + "; echo; exec sleep 30"},
                                                 {-1, w.get(), -1}, err);
  REQUIRE(pid > 0);
  w.reset();
  char c = 0;
  REQUIRE(read(r.get(), &c, 1) == 1);
  return pid;
}

// The child's wait status once it has ended, within `limit`; -1 if not.
int ended_within(pid_t pid, milliseconds limit) {
  const auto until = steady_clock::now() + limit;
  int st = 0;
  while (waitpid(pid, &st, WNOHANG) == 0) {
    if (steady_clock::now() >= until) return -1;
    std::this_thread::sleep_for(10ms);
  }
  return st;
}

}  // namespace

TEST_CASE("the guard stops the groups it holds once the agent is gone, and no others",
          "[launch][rank]") {
  const pid_t held = spawn_group(":");
  const pid_t forgotten = spawn_group(":");
  // Ignores TERM (sleep inherits the ignored signal): KILL after its grace.
  const pid_t stubborn = spawn_group("trap '' TERM");
  namespace fs = std::filesystem;
  const fs::path tmp = fs::temp_directory_path() / ("guard_test." + std::to_string(getpid()));
  for (const char* d : {"held", "forgotten", "stubborn dir"}) fs::create_directories(tmp / d / "x");
  distkit_agent::Guard guard;
  guard.watch(held, 0.1, tmp / "held");
  guard.watch(forgotten, 0.1, tmp / "forgotten");
  guard.watch(stubborn, 1.0, tmp / "stubborn dir");
  guard.forget(forgotten);
  REQUIRE(guard.fd() >= 0);
  const auto t0 = steady_clock::now();
  close(guard.fd());  // as the agent's death closes it

  int st = ended_within(held, 5s);
  REQUIRE(st != -1);
  CHECK((WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM));
  st = ended_within(stubborn, 10s);
  REQUIRE(st != -1);
  CHECK((WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL));
  CHECK(steady_clock::now() - t0 >= 900ms);  // its grace (1 s) came first
  CHECK(ended_within(forgotten, 300ms) == -1);
  // The dirs go once every held group is gone (the guard then exits).
  for (int i = 0; i < 100 && fs::exists(tmp / "stubborn dir"); ++i)
    std::this_thread::sleep_for(50ms);
  CHECK_FALSE(fs::exists(tmp / "held"));
  CHECK_FALSE(fs::exists(tmp / "stubborn dir"));
  CHECK(fs::exists(tmp / "forgotten" / "x"));
  kill(-forgotten, SIGKILL);
  waitpid(forgotten, &st, 0);
  fs::remove_all(tmp);
}
