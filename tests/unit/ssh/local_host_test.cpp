// is_local_host: loopback names and this machine's own names are local.
#include <unistd.h>

#include "catch.hpp"
#include "distkit/ssh/connect.hpp"

using distkit::ssh::is_local_host;

TEST_CASE("loopback names and addresses are local") {
  CHECK(is_local_host("localhost"));
  CHECK(is_local_host("127.0.0.1"));
  CHECK(is_local_host("127.1.2.3"));
  CHECK(is_local_host("::1"));
}

TEST_CASE("this machine's hostname is local, short or full") {
  char buf[256] = {};
  REQUIRE(gethostname(buf, sizeof buf - 1) == 0);
  std::string name(buf);
  CHECK(is_local_host(name));
  CHECK(is_local_host(name.substr(0, name.find('.'))));
}

TEST_CASE("other hosts and empty names are not local") {
  CHECK_FALSE(is_local_host(""));
  CHECK_FALSE(is_local_host("192.0.2.77"));
  CHECK_FALSE(is_local_host("mac-studio-far-away.example"));
}
