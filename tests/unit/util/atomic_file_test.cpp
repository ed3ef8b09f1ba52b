#include "distkit/util/atomic_file.hpp"

#include <sys/stat.h>

#include <filesystem>

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

TEST_CASE("read_file reports a missing file as a usage error") {
  try {
    distkit::read_file("/nonexistent-distkit-file");
    FAIL("expected an error");
  } catch (const distkit::Error& e) {
    CHECK(std::string(e.what()) == "/nonexistent-distkit-file: no such file; check the path");
    CHECK(e.exit_code() == distkit::ExitCode::usage);
  }
}
