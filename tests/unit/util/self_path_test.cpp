// Finding programs: a command through PATH as execvp would (what
// distlaunch --print-python reports for python3, as mlx.launch prints
// sys.executable: absolute, symlinks kept).
#include "distkit/util/self_path.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "catch.hpp"

namespace fs = std::filesystem;

namespace {
fs::path fresh_dir() {
  auto d = fs::temp_directory_path() / ("distkit_self_path_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d / "a");
  fs::create_directories(d / "b");
  fs::create_directories(d / "c");
  return d;
}

void make_file(const fs::path& p, bool executable) {
  std::ofstream(p) << "#!/bin/sh\n";
  fs::permissions(p, executable ? fs::perms::owner_all : fs::perms::owner_read);
}
}  // namespace

TEST_CASE("find_on_path gives the first executable in PATH order, absolute") {
  auto d = fresh_dir();
  make_file(d / "a" / "python3", false);        // not executable: skipped
  fs::create_directories(d / "b" / "python3");  // a directory: skipped
  make_file(d / "c" / "python3", true);
  std::string path = (d / "a").string() + ":" + (d / "b").string() + ":" + (d / "c").string();
  CHECK(distkit::find_on_path("python3", path) == (d / "c" / "python3").string());
  CHECK_FALSE(distkit::find_on_path("python3", (d / "a").string()));
  CHECK_FALSE(distkit::find_on_path("", path));
  fs::remove_all(d);
}

TEST_CASE("find_on_path keeps a symlink's own path, as sys.executable does") {
  auto d = fresh_dir();
  make_file(d / "c" / "python3.12", true);
  fs::create_symlink(d / "c" / "python3.12", d / "a" / "python3");
  CHECK(distkit::find_on_path("python3", (d / "a").string()) == (d / "a" / "python3").string());
  fs::remove_all(d);
}

TEST_CASE("find_on_path makes relative entries and names with a slash absolute") {
  auto d = fresh_dir();
  make_file(d / "c" / "python3", true);
  auto here = fs::current_path();
  fs::current_path(d);
  CHECK(distkit::find_on_path("python3", "c") == (d / "c" / "python3").string());
  CHECK(distkit::find_on_path("./c/python3", "") == (d / "c" / "python3").string());
  CHECK(distkit::find_on_path("python3", ":") == std::nullopt);  // empty entries: d itself
  fs::current_path(here);
  fs::remove_all(d);
}

TEST_CASE("path_env: PATH, or /usr/bin:/bin without one") {
  const char* saved = std::getenv("PATH");
  std::string before = saved ? saved : "";
  ::setenv("PATH", "/opt/x:/bin", 1);
  CHECK(distkit::path_env() == "/opt/x:/bin");
  ::unsetenv("PATH");
  CHECK(distkit::path_env() == "/usr/bin:/bin");
  if (saved) ::setenv("PATH", before.c_str(), 1);
}
