// The heartbeat file distlaunch watches for stall reports
// (DISTKIT_HEARTBEAT_FILE): created when a group starts, touched again when
// a call completes once a second has passed, left alone by a rank that
// makes no calls.
#include <sys/stat.h>
#include <sys/time.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "catch.hpp"
#include "harness.hpp"

using namespace distkit::rt;
using namespace distkit::rt::test;
namespace fs = std::filesystem;

namespace {

long long mtime_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<long long>(st.st_mtime);
}

void set_mtime(const std::string& path, long long seconds) {
  timeval tv[2] = {{static_cast<time_t>(seconds), 0}, {static_cast<time_t>(seconds), 0}};
  ::utimes(path.c_str(), tv);
}

}  // namespace

TEST_CASE("a group creates its heartbeat file and touches it when calls complete", "[runtime]") {
  const fs::path dir = fs::temp_directory_path() / ("distkit-beat-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto beat_file = [&](int r) { return (dir / ("beat" + std::to_string(r))).string(); };
  long long at_start[2] = {-1, -1}, after_idle[2] = {-1, -1}, after_call[2] = {-1, -1};
  auto results = run_ranks(
      base_config(2),
      [&](Group& g) {
        const int r = g.rank();
        at_start[r] = mtime_of(beat_file(r));
        g.barrier();
        set_mtime(beat_file(r), 1000);
        // Within a second of the last touch, a call does not touch again.
        g.barrier();
        after_idle[r] = mtime_of(beat_file(r));
        std::this_thread::sleep_for(std::chrono::milliseconds(1100));
        g.barrier();
        after_call[r] = mtime_of(beat_file(r));
      },
      [&](Config& c) { c.heartbeat_file = beat_file(c.rank); });
  for (int r = 0; r < 2; ++r) {
    INFO("rank " << r << ": " << results[static_cast<size_t>(r)].error);
    CHECK(results[static_cast<size_t>(r)].error.empty());
    CHECK(at_start[r] > 1000);
    CHECK(after_idle[r] == 1000);
    CHECK(after_call[r] > 1000);
    CHECK((fs::status(beat_file(r)).permissions() & fs::perms::others_all) == fs::perms::none);
  }
  fs::remove_all(dir);
}

TEST_CASE("DISTKIT_HEARTBEAT_FILE names the heartbeat file", "[runtime]") {
  const fs::path dir =
      fs::temp_directory_path() / ("distkit-beatenv-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string hostfile = (dir / "hosts.json").string();
  {
    std::FILE* f = std::fopen(hostfile.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fputs("[[\"127.0.0.1:5000\"]]\n", f);
    std::fclose(f);
  }
  ::setenv("MLX_HOSTFILE", hostfile.c_str(), 1);
  ::setenv("MLX_RANK", "0", 1);
  ::setenv("DISTKIT_INSECURE", "1", 1);
  ::setenv("DISTKIT_HEARTBEAT_FILE", "/tmp/some/beat", 1);
  Config c = config_from_environment();
  CHECK(c.heartbeat_file == "/tmp/some/beat");
  ::unsetenv("DISTKIT_HEARTBEAT_FILE");
  CHECK(config_from_environment().heartbeat_file.empty());
  for (const char* v : {"MLX_HOSTFILE", "MLX_RANK", "DISTKIT_INSECURE"}) ::unsetenv(v);
  fs::remove_all(dir);
}
