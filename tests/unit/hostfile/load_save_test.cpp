// Files on disk: a missing file, a directory, an oversized file, and save()
// writing what load() reads (refusing to write an invalid model).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "error_text.hpp"

using namespace distkit::hostfile;
using distkit::hostfile::test::usage_error_of;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "distkit-hostfile-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST_CASE("loading a missing hostfile says so") {
  TempDir d;
  fs::path p = d.path / "nope.json";
  CHECK(usage_error_of([&] { load(p); }) ==
        p.string() + ": no such hostfile; check the path, or write one with distconfig");
}

TEST_CASE("loading a directory is refused") {
  TempDir d;
  CHECK(usage_error_of([&] { load(d.path); }) ==
        d.path.string() + ": is a directory, not a file; give a file path");
}

TEST_CASE("loading a file over 64 MiB stops reading and refuses it") {
  TempDir d;
  fs::path p = d.path / "big.json";
  { std::ofstream(p) << "["; }
  fs::resize_file(p, kMaxHostfileBytes + 1);
  CHECK(usage_error_of([&] { load(p); }) ==
        p.string() + ": larger than 64 MiB; give the right file");
}

TEST_CASE("save writes what load reads, and names the file in load errors") {
  TempDir d;
  fs::path p = d.path / "hosts.json";
  Hostfile hf;
  hf.backend = Backend::ring;
  hf.hosts = {{"a", {"10.0.0.1"}, {}}, {"b", {"10.0.0.2"}, {}}};
  save(p, hf);
  CHECK(load(p) == hf);
  { std::ofstream(p) << "[{\"ssh\": \"a\"},]"; }
  CHECK(usage_error_of([&] { load(p); }) ==
        p.string() +
            ": invalid JSON at line 1, column 15: unexpected ']', expected a value; "
            "fix the JSON syntax there");
}

TEST_CASE("save refuses an invalid model and leaves no file") {
  TempDir d;
  fs::path p = d.path / "hosts.json";
  Hostfile hf;
  hf.hosts = {{"", {}, {}}};
  CHECK(usage_error_of([&] { save(p, hf); }) ==
        p.string() +
            ": hosts[0].ssh: is empty; give the host's SSH name or address, e.g. "
            "\"ssh\": \"studio-a\"");
  CHECK_FALSE(fs::exists(p));
}
