// distkit/util/posix.hpp: the pipe and descriptor helpers every part uses.
#include <fcntl.h>
#include <unistd.h>

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
