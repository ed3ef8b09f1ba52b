#include "distkit/util/error.hpp"

#include "catch.hpp"

TEST_CASE("errors print as one line: tool, subject, problem, remedy") {
  distkit::UsageError e("hosts.json", "line 3, column 7: unexpected '}'", "fix the JSON");
  CHECK(distkit::format_error_line("distlaunch", e) ==
        "distlaunch: error: hosts.json: line 3, column 7: unexpected '}'; fix the JSON");
  CHECK(e.exit_code() == distkit::ExitCode::usage);
}

TEST_CASE("errors without subject or remedy omit those parts") {
  distkit::RemoteError e("", "rank 2 exited with status 3");
  CHECK(std::string(e.what()) == "rank 2 exited with status 3");
  CHECK(e.exit_code() == distkit::ExitCode::failure);
}
