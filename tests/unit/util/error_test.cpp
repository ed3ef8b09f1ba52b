#include "distkit/util/error.hpp"

#include "catch.hpp"

TEST_CASE("errors print as one line: tool, subject, problem, remedy") {
  distkit::UsageError e("hosts.json", "line 3, column 7: unexpected '}'", "fix the JSON");
  CHECK(distkit::format_error_line("distlaunch", e) ==
        "distlaunch: error: hosts.json: line 3, column 7: unexpected '}'; fix the JSON");
  CHECK(e.exit_code() == distkit::ExitCode::usage);
}

TEST_CASE("run_tool is the one catch site: the error line and the exit-code contract") {
  std::FILE* err = std::tmpfile();
  auto said = [&] {
    std::string s;
    std::rewind(err);
    for (int c; (c = std::fgetc(err)) != EOF;) s += static_cast<char>(c);
    return s;
  };
  CHECK(distkit::run_tool(
            "distx", [] { return 7; }, err) == 7);
  CHECK(said().empty());
  CHECK(distkit::run_tool(
            "distx", []() -> int { throw distkit::UsageError("--hosts", "empty", "give a host"); },
            err) == 2);
  CHECK(said() == "distx: error: --hosts: empty; give a host\n");
  CHECK(distkit::run_tool(
            "distx", []() -> int { throw std::logic_error("boom"); }, err) == 1);
  CHECK(said() == "distx: error: --hosts: empty; give a host\ndistx: error: internal: boom\n");
  std::fclose(err);
}

TEST_CASE("errors without subject or remedy omit those parts") {
  distkit::RemoteError e("", "rank 2 exited with status 3");
  CHECK(std::string(e.what()) == "rank 2 exited with status 3");
  CHECK(e.exit_code() == distkit::ExitCode::failure);
}
