// The --links file: cables declared by hand, with one-line errors naming
// the file and line for every malformed input.
#include "distkit/netsetup/links.hpp"
#include "catch.hpp"
#include "distkit/util/error.hpp"

using namespace distkit;
using namespace distkit::netsetup;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_links(text, "cables.txt");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a links file declares one cable per line, with comments and blank lines") {
  auto c = parse_links(
      "# ring of 3\n\nh1:eth1 h2:eth1\n  h2:eth2\th3:tb-1  # second\nh3:eth2 10.0.0.1:eth2\n",
      "cables.txt");
  REQUIRE(c.size() == 3);
  CHECK(c[0].a == Endpoint{"h1", "eth1"});
  CHECK(c[1].b == Endpoint{"h3", "tb-1"});
  CHECK(c[2].b == Endpoint{"10.0.0.1", "eth2"});
}

TEST_CASE("a links file saved by a Windows editor (byte order mark, CRLF) reads the same") {
  auto c = parse_links("\xEF\xBB\xBFh1:eth1 h2:eth1\r\nh2:eth2 h1:eth2\r\n", "cables.txt");
  REQUIRE(c.size() == 2);
  CHECK(c[0].a == Endpoint{"h1", "eth1"});
  CHECK(c[1].b == Endpoint{"h1", "eth2"});
  // Only at the start: the same bytes inside a line are still refused.
  CHECK(error_of("h1:eth1 h2:eth1\n\xEF\xBB\xBFh2:eth2 h1:eth2\n").rfind("cables.txt:2: ", 0) == 0);
}

TEST_CASE("malformed links files are rejected with the file, line and a remedy") {
  CHECK(error_of("h1:eth1\n") ==
        "cables.txt:1: expected 2 endpoints, found 1; write one cable per line as hostA:ifA "
        "hostB:ifB");
  CHECK(error_of("\nh1:eth1 h2:eth1 h3:eth1\n") ==
        "cables.txt:2: expected 2 endpoints, found 3; write one cable per line as hostA:ifA "
        "hostB:ifB");
  CHECK(error_of("h1 h2\n") ==
        "cables.txt:1: \"h1\" has no ':' between host and interface; write one cable per line as "
        "hostA:ifA hostB:ifB");
  CHECK(error_of(":eth1 h2:eth1\n") ==
        "cables.txt:1: \":eth1\" has no valid host name before ':'; write one cable per line as "
        "hostA:ifA hostB:ifB");
  CHECK(error_of("h1:eth/1 h2:eth1\n") ==
        "cables.txt:1: \"eth/1\" is not an interface name; use 1 to 15 characters of letters, "
        "digits, '_', '.', '-'");
  CHECK(error_of("h1: h2:eth1\n") ==
        "cables.txt:1: \"\" is not an interface name; use 1 to 15 characters of letters, digits, "
        "'_', '.', '-'");
  CHECK(error_of("h1:averyveryverylongname h2:eth1\n") ==
        "cables.txt:1: \"averyveryverylongname\" is not an interface name; use 1 to 15 characters "
        "of letters, digits, '_', '.', '-'");
  CHECK(error_of("h1:eth1 h1:eth2\n") ==
        "cables.txt:1: cable from h1 to itself; a cable joins two different hosts");
  CHECK(error_of("h1:eth1 h2:eth1\nh3:eth1 h1:eth1\n") ==
        "cables.txt:2: h1:eth1 is already cabled on line 1; an interface carries one cable");
  CHECK(error_of("# nothing\n\n") ==
        "cables.txt: declares no cable; write one cable per line as hostA:ifA hostB:ifB");
  CHECK(error_of(std::string("h1:e\0th h2:eth1\n", 16)) ==
        "cables.txt:1: \"e?th\" is not an interface name; use 1 to 15 characters of letters, "
        "digits, '_', '.', '-'");
}

TEST_CASE("every host of a links file must be in the host list") {
  auto c = parse_links("h1:eth1 h2:eth1\nh2:eth2 hh3:eth1\n", "cables.txt");
  CHECK_NOTHROW(check_link_hosts(c, {"h1", "h2", "hh3"}, "cables.txt"));
  try {
    check_link_hosts(c, {"h1", "h2", "h3"}, "cables.txt");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) ==
          "cables.txt: host \"hh3\" is not in the host list; did you mean \"h3\"?");
  }
}

TEST_CASE("arbitrary bytes never crash the links parser") {
  std::string junk;
  for (int i = 0; i < 2000; ++i) junk += char((i * 7919) % 256);
  CHECK_THROWS_AS(parse_links(junk, "junk"), UsageError);
}
