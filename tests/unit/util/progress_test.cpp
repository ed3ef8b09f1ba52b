// The per-host progress board: what it draws, and that scripts (non-TTY,
// not verbose) see nothing from it.
#include "distkit/util/progress.hpp"

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "catch.hpp"

using namespace std::chrono_literals;
using distkit::HostProgress;
using distkit::HostState;

namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[512];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fseek(f, 0, SEEK_END);
  return out;
}

std::vector<HostProgress> four_hosts() {
  return {{"mac-studio-1", HostState::done, ""},
          {"h2", HostState::failed, "unreachable"},
          {"h3", HostState::working, ""},
          {"h4", HostState::connecting, ""}};
}

}  // namespace

TEST_CASE("progress board shows a counting header and one aligned line per host") {
  const auto lines = distkit::render_progress(four_hosts(), "probing", 2400ms, 80, 10, false);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "probing 4 hosts (2.4 s): 1 done, 1 failed, 2 running");
  CHECK(lines[1] == "  mac-studio-1  done");
  CHECK(lines[2] == "  h2            failed: unreachable");
  CHECK(lines[3] == "  h3            probing");
  CHECK(lines[4] == "  h4            connecting");
}

TEST_CASE("progress board with more hosts than rows names only running and failed hosts") {
  const auto lines = distkit::render_progress(four_hosts(), "starting", 1000ms, 200, 3, false);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] ==
        "starting 4 hosts (1.0 s): 1 done, 1 failed, 2 running; failed: h2; running: h3 h4");
}

TEST_CASE("progress lines are clipped to the terminal width") {
  const auto lines = distkit::render_progress(four_hosts(), "probing", 0ms, 12, 10, false);
  for (const auto& line : lines) CHECK(line.size() <= 12);
  CHECK(lines[0] == "probing 4 h~");
}

TEST_CASE("progress colours finished hosts only when asked") {
  const auto lines = distkit::render_progress(four_hosts(), "probing", 0ms, 80, 10, true);
  CHECK(lines[1] == "\033[32m  mac-studio-1  done\033[0m");
  CHECK(lines[2] == "\033[31m  h2            failed: unreachable\033[0m");
  CHECK(lines[3] == "  h3            probing");
}

TEST_CASE("progress mode: verbose gives lines, a non-TTY gives nothing") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  CHECK(distkit::choose_progress_mode(f, true) == distkit::ProgressMode::lines);
  CHECK(distkit::choose_progress_mode(f, false) == distkit::ProgressMode::off);
  std::fclose(f);
}

TEST_CASE("lines mode prints each state change once, plain") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    distkit::ProgressBoard board({"h1", "h2"}, "probing", f, distkit::ProgressMode::lines);
    board.set(0, HostState::connecting);
    board.set(0, HostState::connecting);  // unchanged: not repeated
    board.set(1, HostState::failed, "auth failed");
    board.set(7, HostState::done);  // out of range: ignored
    board.set(0, HostState::done);
  }
  CHECK(contents(f) == "h1: connecting\nh2: failed: auth failed\nh1: done\n");
  std::fclose(f);
}

TEST_CASE("off mode writes nothing at all") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    distkit::ProgressBoard board({"h1"}, "probing", f, distkit::ProgressMode::off);
    board.set(0, HostState::done);
  }
  CHECK(contents(f).empty());
  std::fclose(f);
}

TEST_CASE("live mode draws after the delay and erases the board when finished") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  distkit::ProgressBoard board({"h1", "h2"}, "probing", f, distkit::ProgressMode::live,
                               {std::chrono::milliseconds(0), std::chrono::milliseconds(5)});
  board.set(0, HostState::working);
  std::string out;
  for (int i = 0; i < 400 && out.find("h1  probing") == std::string::npos; ++i) {
    std::this_thread::sleep_for(5ms);
    out = contents(f);
  }
  CHECK(out.find("  h1  probing\n") != std::string::npos);
  board.finish();
  out = contents(f);
  // The last thing written moves the cursor up over the 3 board lines and
  // clears to the end of the screen.
  CHECK(out.size() >= 7);
  CHECK(out.substr(out.size() - 7) == "\033[3A\033[J");
  std::fclose(f);
}

TEST_CASE("live mode draws nothing for an operation quicker than the delay") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    distkit::ProgressBoard board({"h1"}, "probing", f, distkit::ProgressMode::live,
                                 {std::chrono::milliseconds(60000), std::chrono::milliseconds(5)});
    board.set(0, HostState::done);
  }
  CHECK(contents(f).empty());
  std::fclose(f);
}
