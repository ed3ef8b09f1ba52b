#include "distkit/util/strings.hpp"
#include "distkit/util/utc_time.hpp"

#include "catch.hpp"

TEST_CASE("split keeps empty fields") {
  CHECK(distkit::split("a,,b", ',') == std::vector<std::string>{"a", "", "b"});
  CHECK(distkit::split("", ',') == std::vector<std::string>{""});
}

TEST_CASE("split_lines accepts CRLF and drops the final empty line") {
  auto l = distkit::split_lines("a\r\nb\n\nc\n");
  REQUIRE(l.size() == 4);
  CHECK(l[0] == "a");
  CHECK(l[2].empty());
  CHECK(l[3] == "c");
}

TEST_CASE("trim removes surrounding white space only") {
  CHECK(distkit::trim("  a b\t\n") == "a b");
  CHECK(distkit::trim(" \t ").empty());
}

TEST_CASE("did_you_mean suggests within two edits, else nothing") {
  std::vector<std::string> names{"ring", "jaccl", "jaccl-ring", "nccl", "mpi"};
  CHECK(distkit::did_you_mean("jacl", names, "") == "did you mean \"jaccl\"?");
  CHECK(distkit::did_you_mean("rnig", names, "") == "did you mean \"ring\"?");
  CHECK(distkit::did_you_mean("infiniband", names, "").empty());
}

TEST_CASE("split_words splits on runs of spaces and tabs and drops empty words") {
  CHECK(distkit::split_words("  rdma_en2 \t 0x1\t") == std::vector<std::string>{"rdma_en2", "0x1"});
  CHECK(distkit::split_words(" \t ").empty());
  CHECK(distkit::split_words("one") == std::vector<std::string>{"one"});
}

TEST_CASE("did_you_mean suggests the close name, else gives the fallback") {
  std::vector<std::string> names{"openmpi", "mpich"};
  CHECK(distkit::did_you_mean("openmp", names, "use one of them") == "did you mean \"openmpi\"?");
  CHECK(distkit::did_you_mean("yaml", names, "use one of them") == "use one of them");
}

TEST_CASE("utc_time spells a time in UTC, ISO 8601 by default") {
  CHECK(distkit::utc_time(0) == "1970-01-01T00:00:00Z");
  CHECK(distkit::utc_time(1796272175, distkit::UtcFormat::compact) == "20261203T042935Z");
}

TEST_CASE("last_line: the last line with more than blanks, trimmed") {
  CHECK(distkit::last_line("ssh: connect to host h1\r\n  Connection refused \n \n") ==
        "Connection refused");
  CHECK(distkit::last_line("one") == "one");
  CHECK(distkit::last_line(" \n\t\n").empty());
}

TEST_CASE("first_line: the first line with more than blanks, trimmed") {
  CHECK(distkit::first_line("\n  \r\n  sudo: a password is required \nlater\n") ==
        "sudo: a password is required");
  CHECK(distkit::first_line(" \n\t\n").empty());
  CHECK(distkit::first_line("").empty());
}

TEST_CASE("seconds_text: a tenth of a second, rounded") {
  CHECK(distkit::seconds_text(2.44) == "2.4 s");
  CHECK(distkit::seconds_text(2.46) == "2.5 s");
  CHECK(distkit::seconds_text(0) == "0.0 s");
  CHECK(distkit::seconds_text(120) == "120.0 s");
}

TEST_CASE("is_word takes ASCII letters, digits, '_' and only the extra characters given") {
  CHECK(distkit::is_word("MLX_RANK_0"));
  CHECK(distkit::is_word(""));
  CHECK_FALSE(distkit::is_word("en0.5"));
  CHECK(distkit::is_word("en0.5", ".-"));
  CHECK_FALSE(distkit::is_word("a b", ".-"));
  CHECK_FALSE(distkit::is_word("a=b"));
  CHECK_FALSE(distkit::is_word(std::string_view("a\0b", 3), ".-"));
  CHECK_FALSE(distkit::is_word("caf\xc3\xa9"));
}
