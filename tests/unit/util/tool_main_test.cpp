// The tools' one entry point: argv parsing, the catch site and the exit
// codes, as every tool's main() and the in-process tool tests use them.
#include "distkit/util/tool_main.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "catch.hpp"
#include "distkit/util/error.hpp"

namespace {

struct Said {
  int status = -1;
  std::string out, err;
  bool ran = false;
};

Said run(
    std::vector<std::string> args, std::function<int()> body = [] { return 0; }) {
  int n = 0;
  Said s;
  char *out = nullptr, *err = nullptr;
  size_t out_size = 0, err_size = 0;
  std::FILE* fout = open_memstream(&out, &out_size);
  std::FILE* ferr = open_memstream(&err, &err_size);
  s.status = distkit::tool_main(
      "distx", std::move(args),
      [&](CLI::App& app) {
        app.add_option("-n", n, "a number");
        app.set_version_flag("--version", "distx 1.0");
      },
      [&] {
        s.ran = true;
        return body() + n;
      },
      fout, ferr);
  std::fclose(fout);
  std::fclose(ferr);
  s.out.assign(out, out_size);
  s.err.assign(err, err_size);
  std::free(out);
  std::free(err);
  return s;
}

}  // namespace

TEST_CASE("whole_number refuses what is not a whole number in its range, in one line") {
  auto said = [](std::string text) {
    int port = 0;
    Said s;
    char* err = nullptr;
    size_t err_size = 0;
    std::FILE* ferr = open_memstream(&err, &err_size);
    s.status = distkit::tool_main(
        "distx", {"-p", std::move(text)},
        [&](CLI::App& app) { app.add_option("-p", port)->check(distkit::whole_number(1, 65535)); },
        [&] { return port == 80 ? 0 : 1; }, stdout, ferr);
    std::fclose(ferr);
    s.err.assign(err, err_size);
    std::free(err);
    return s;
  };
  CHECK(said("80").status == 0);
  for (const char* bad : {"1e9", "nan", "0x10", "+5", "", "8 0"}) {
    auto s = said(bad);
    CHECK(s.status == 2);
    CHECK(s.err == std::string("distx: error: -p: \"") + bad +
                       "\" is not a whole number; give one from 1 to 65535; see distx --help\n");
  }
  for (const char* far : {"70000", "0", "-80", "99999999999"})
    CHECK(said(far).err == std::string("distx: error: -p: ") + far +
                               " is out of range; give a whole number from 1 to 65535; see distx "
                               "--help\n");
}

TEST_CASE("tool_main parses, then runs the body for its status") {
  auto s = run({"-n", "3"});
  CHECK(s.ran);
  CHECK(s.status == 3);
  CHECK(s.err.empty());
}

TEST_CASE("tool_main: --help and --version print on stdout and give 0, without the body") {
  auto help = run({"--help"});
  CHECK_FALSE(help.ran);
  CHECK(help.status == 0);
  CHECK(help.out.find("Usage: distx [OPTIONS]") != std::string::npos);
  auto version = run({"--version"});
  CHECK(version.status == 0);
  CHECK(version.out == "distx 1.0\n");
}

// CLI11's own words differ between its versions (Debian's v2.3, Homebrew's
// newer one): the line's frame is ours and is what is checked.
TEST_CASE("tool_main: a bad flag is one error line with CLI11's message, exit 2, no body") {
  for (const auto& args : {std::vector<std::string>{"--bogus"}, {"-n", "x"}}) {
    auto s = run(args);
    CHECK_FALSE(s.ran);
    CHECK(s.status == 2);
    CHECK(s.out.empty());
    CHECK(s.err.rfind("distx: error: ", 0) == 0);
    CHECK(s.err.find(args[0]) != std::string::npos);
    CHECK(s.err.size() > 19);
    CHECK(s.err.substr(s.err.size() - 19) == "; see distx --help\n");
    CHECK(std::count(s.err.begin(), s.err.end(), '\n') == 1);
  }
}

TEST_CASE("tool_main: a flag defined twice is an internal error, not a terminate") {
  char* err = nullptr;
  size_t size = 0;
  std::FILE* ferr = open_memstream(&err, &size);
  int status = distkit::tool_main(
      "distx", {},
      [](CLI::App& app) {
        static int x = 0;
        app.add_option("--x", x, "once");
        app.add_option("--x", x, "twice");
      },
      [] { return 0; }, stdout, ferr);
  std::fclose(ferr);
  CHECK(status == 1);
  CHECK(std::string(err, size).rfind("distx: error: internal: ", 0) == 0);
  std::free(err);
}

TEST_CASE("tool_main: what the body throws is the one error line and its exit code") {
  auto s = run({}, []() -> int { throw distkit::UsageError("--hosts", "empty", "give a host"); });
  CHECK(s.status == 2);
  CHECK(s.err == "distx: error: --hosts: empty; give a host\n");
  auto r = run({}, []() -> int { throw distkit::RemoteError("h1", "connection lost"); });
  CHECK(r.status == 1);
  CHECK(r.err == "distx: error: h1: connection lost\n");
}
