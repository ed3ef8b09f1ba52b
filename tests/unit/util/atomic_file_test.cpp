#include "distkit/util/atomic_file.hpp"

#include <sys/stat.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "catch.hpp"
#include "distkit/util/error.hpp"

namespace fs = std::filesystem;

namespace {
fs::path fresh_dir() {
  auto d = fs::temp_directory_path() / ("distkit_atomic_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST_CASE("write_file_atomic replaces the file and leaves no temporary behind") {
  auto d = fresh_dir();
  distkit::write_file_atomic(d / "out.json", "first");
  distkit::write_file_atomic(d / "out.json", "second");
  CHECK(distkit::read_file(d / "out.json") == "second");
  CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);
  fs::remove_all(d);
}

TEST_CASE("write_file_atomic applies the requested mode") {
  auto d = fresh_dir();
  distkit::write_file_atomic(d / "secret", "token", 0600);
  struct stat st {};
  REQUIRE(::stat((d / "secret").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  fs::remove_all(d);
}

TEST_CASE("write_file_atomic into a missing directory names the path") {
  try {
    distkit::write_file_atomic("/nonexistent-distkit-dir/out.json", "x");
    FAIL("expected an error");
  } catch (const distkit::Error& e) {
    CHECK(std::string(e.what()).rfind("/nonexistent-distkit-dir/out.json: cannot create", 0) == 0);
  }
}

TEST_CASE("read_file refuses a file over its limit, from its size or while reading a pipe") {
  auto d = fresh_dir();
  distkit::write_file_atomic(d / "big", std::string((2u << 20) + 1, 'x'));
  const std::string want = (d / "big").string() + ": larger than 2 MiB; give the right file";
  try {
    distkit::read_file(d / "big", 2u << 20);
    FAIL("expected an error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) == want);
  }
  CHECK(distkit::read_file(d / "big", 3u << 20).size() == (2u << 20) + 1);
  // A FIFO has no size up front: the read itself stops at the limit.
  REQUIRE(::mkfifo((d / "fifo").c_str(), 0600) == 0);
  auto old_pipe = std::signal(SIGPIPE, SIG_IGN);
  std::thread writer([&] {
    std::FILE* f = std::fopen((d / "fifo").c_str(), "w");
    if (!f) return;
    std::string chunk(65536, 'y');
    for (int i = 0; i < 64; ++i)
      if (std::fwrite(chunk.data(), 1, chunk.size(), f) != chunk.size()) break;
    std::fclose(f);
  });
  try {
    distkit::read_file(d / "fifo", 1u << 20);
    FAIL("expected an error");
  } catch (const distkit::UsageError& e) {
    CHECK(std::string(e.what()) ==
          (d / "fifo").string() + ": larger than 1 MiB; give the right file");
  }
  writer.join();  // its writes fail with EPIPE once the reader has gone
  std::signal(SIGPIPE, old_pipe);
  fs::remove_all(d);
}

TEST_CASE("read_file reports a missing file as a usage error") {
  try {
    distkit::read_file("/nonexistent-distkit-file");
    FAIL("expected an error");
  } catch (const distkit::Error& e) {
    CHECK(std::string(e.what()) == "/nonexistent-distkit-file: no such file; check the path");
    CHECK(e.exit_code() == distkit::ExitCode::usage);
  }
}
