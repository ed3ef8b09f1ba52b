// shell_quote must make any byte string arrive at a program exactly as given,
// and never execute anything. Checked through a real /bin/sh.
#include "distkit/util/shell_quote.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "catch.hpp"

namespace {
// Runs `sh -c "printf %s <quoted>"` and returns what the shell printed.
std::string echo_through_shell(const std::string& word) {
  std::string cmd = "/bin/sh -c " + distkit::shell_quote("printf %s " + distkit::shell_quote(word));
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}
}  // namespace

TEST_CASE("safe words are left unquoted") {
  CHECK(distkit::shell_quote("rdma_en3") == "rdma_en3");
  CHECK(distkit::shell_quote("/Users/me/work") == "/Users/me/work");
  CHECK(distkit::shell_quote("10.0.0.1:32323") == "10.0.0.1:32323");
}

TEST_CASE("empty and special words are single-quoted") {
  CHECK(distkit::shell_quote("") == "''");
  CHECK(distkit::shell_quote("a b") == "'a b'");
  CHECK(distkit::shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("hostile words arrive unchanged and execute nothing") {
  auto marker = std::filesystem::temp_directory_path() / "distkit_quote_marker";
  std::filesystem::remove(marker);
  const std::string m = marker.string();
  const std::string words[] = {"$(touch " + m + ")",
                               "`touch " + m + "`",
                               "; touch " + m,
                               "a'b\"c",
                               "line1\nline2",
                               "tab\there",
                               "ünïcödé ✓",
                               "*",
                               "~",
                               "$HOME",
                               "\\",
                               "'",
                               "''",
                               "a && touch " + m};
  for (const auto& w : words) CHECK(echo_through_shell(w) == w);
  CHECK_FALSE(std::filesystem::exists(marker));
}

TEST_CASE("shell_join quotes each word") {
  CHECK(distkit::shell_join({"python3", "job.py", "--name", "a b"}) ==
        "python3 job.py --name 'a b'");
}
