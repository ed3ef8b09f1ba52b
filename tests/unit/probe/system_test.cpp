// sw_vers, os-release, uname and version lines.
#include "distkit/probe/system.hpp"

#include "catch.hpp"

using namespace distkit::probe;

TEST_CASE("sw_vers gives product, version and build") {
  auto v =
      parse_sw_vers("ProductName:\t\tmacOS\nProductVersion:\t\t26.2\nBuildVersion:\t\t25C56\n");
  CHECK(v.name == "macOS");
  CHECK(v.version == "26.2");
  CHECK(v.build == "25C56");
}

TEST_CASE("os-release gives NAME and VERSION_ID without quotes") {
  auto v = parse_os_release(
      "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian "
      "GNU/Linux\"\nVERSION_ID=\"12\"\n");
  CHECK(v.name == "Debian GNU/Linux");
  CHECK(v.version == "12");
  CHECK(v.build.empty());
}

TEST_CASE("uname -srm gives the kernel") {
  auto u = parse_uname("Darwin 25.2.0 arm64\n");
  CHECK(u.kernel == "Darwin");
  CHECK(parse_uname("").kernel.empty());
}

TEST_CASE("version lines drop the Python prefix and blank lines") {
  CHECK(parse_version_line("\nPython 3.12.1\n") == "3.12.1");
  CHECK(parse_version_line("0.30.1\n") == "0.30.1");
  CHECK(parse_version_line("") == "");
}
