// distkit/util/posix.hpp: the pipe, descriptor and spawn helpers every part uses.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "distkit/util/posix.hpp"

using namespace distkit::posix;

TEST_CASE("make_pipe gives close-on-exec ends, non-blocking when asked", "[util][posix]") {
  Fd r, w;
  REQUIRE(make_pipe(r, w));
  CHECK((fcntl(r.get(), F_GETFD) & FD_CLOEXEC));
  CHECK((fcntl(w.get(), F_GETFD) & FD_CLOEXEC));
  CHECK_FALSE((fcntl(r.get(), F_GETFL) & O_NONBLOCK));
  Fd nr, nw;
  REQUIRE(make_pipe(nr, nw, true));
  CHECK((fcntl(nr.get(), F_GETFL) & O_NONBLOCK));
  char c;
  CHECK(read(nr.get(), &c, 1) == -1);  // empty: EAGAIN, not a hang
}

TEST_CASE("Fd closes what it owns, once, and moves", "[util][posix]") {
  Fd r, w;
  REQUIRE(make_pipe(r, w));
  int raw = r.get();
  Fd moved = std::move(r);
  CHECK_FALSE(r.valid());
  CHECK(moved.get() == raw);
  moved.reset();
  CHECK(fcntl(raw, F_GETFD) == -1);  // closed
  CHECK(now_seconds() > 0);
}

namespace {
// Runs argv with its stdout into a pipe; returns (output, wait status).
std::pair<std::string, int> spawn_and_read(const std::vector<std::string>& args, int& err) {
  Fd r, w;
  REQUIRE(make_pipe(r, w));
  pid_t pid = spawn_in_new_group(args, {-1, w.get(), -1}, err);
  w.reset();
  std::string out;
  char buf[256];
  ssize_t n;
  while ((n = read(r.get(), buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  int status = -1;
  if (pid > 0) waitpid(pid, &status, 0);
  return {out, status};
}
}  // namespace

TEST_CASE("spawn_in_new_group: own process group, default signals", "[util][posix]") {
  // SIGINT ignored here stays ignored across a plain fork and exec; the
  // child must get the default (a rank's ^C kills it) and its own group.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old);
  int err = 0;
  pid_t pid = spawn_in_new_group({"sleep", "30"}, {-1, -1, -1}, err);
  sigaction(SIGINT, &old, nullptr);
  REQUIRE(pid > 0);
  CHECK(getpgid(pid) == pid);
  kill(pid, SIGINT);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGINT));
}

TEST_CASE("spawn_in_new_group: a file without #! runs under sh; a missing one fails",
          "[util][posix]") {
  char dir[] = "/tmp/distkit-spawn-XXXXXX";
  REQUIRE(mkdtemp(dir));
  std::string script = std::string(dir) + "/noshebang";
  {
    std::ofstream f(script);
    f << "echo ran \"$1\"\n";
  }
  chmod(script.c_str(), 0755);
  int err = 0;
  auto [out, status] = spawn_and_read({script, "arg one"}, err);
  CHECK(err == 0);
  CHECK(out == "ran arg one\n");
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  unlink(script.c_str());
  rmdir(dir);
  CHECK(spawn_in_new_group({"/nonexistent/distkit-no-such-command"}, {-1, -1, -1}, err) == -1);
  CHECK(err == ENOENT);
}
