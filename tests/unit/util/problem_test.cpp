// The one diagnostics format: a Problem's line, its JSON, and what an Error
// carries over.
#include "distkit/util/problem.hpp"

#include <sstream>

#include "catch.hpp"

using distkit::Problem;

TEST_CASE("a problem prints as one line, warnings before errors") {
  Problem port{"h1", "port-busy", "port 5000 is already in use", "pick another --starting-port"};
  Problem drift{"", "drift", "hosts differ in OS (a: x, b: y)", "", distkit::Severity::warning};
  CHECK(distkit::format_line("distlaunch", port) ==
        "distlaunch: error: h1: port 5000 is already in use; pick another --starting-port");
  CHECK(distkit::format_line("distlaunch", drift) ==
        "distlaunch: warning: hosts differ in OS (a: x, b: y)");

  char* text = nullptr;
  size_t size = 0;
  std::FILE* err = open_memstream(&text, &size);
  distkit::print_problems(err, "distlaunch", {port, drift});
  std::fclose(err);
  CHECK(std::string(text, size) ==
        "distlaunch: warning: hosts differ in OS (a: x, b: y)\n"
        "distlaunch: error: h1: port 5000 is already in use; pick another --starting-port\n");
  std::free(text);

  // On a stream (distconfig's), the prefix coloured only when asked.
  std::ostringstream plain, colored;
  distkit::print_problems(plain, "distconfig", {port, drift});
  CHECK(plain.str() == std::string("distconfig: warning: hosts differ in OS (a: x, b: y)\n"
                                   "distconfig: error: h1: port 5000 is already in use; pick "
                                   "another --starting-port\n"));
  distkit::print_problems(colored, "distconfig", {port}, true);
  CHECK(colored.str() ==
        "\x1b[31mdistconfig: error: \x1b[0mh1: port 5000 is already in use; "
        "pick another --starting-port\n");
}

TEST_CASE("a problem's JSON carries its fields, not its line") {
  Problem p{"h2", "no-agent", "no distkit-agent there", "install distkit on h2"};
  CHECK(distkit::to_json(p) == nlohmann::json{{"subject", "h2"},
                                              {"kind", "no-agent"},
                                              {"severity", "error"},
                                              {"problem", "no distkit-agent there"},
                                              {"remedy", "install distkit on h2"}});
  CHECK(distkit::to_json(std::vector<Problem>{}) == nlohmann::json::array());
}

TEST_CASE("an Error becomes a problem with its exit code; counts") {
  distkit::RemoteError e("h3", "connection lost", "check the host");
  Problem p = distkit::problem_of(e, "lost");
  CHECK(distkit::describe(p) == std::string(e.what()));
  CHECK(p.code == distkit::ExitCode::failure);
  std::vector<Problem> all = {p, {"h4", "port-busy", "x", ""}};
  CHECK(distkit::count_errors(all, distkit::ExitCode::failure) == 1);
  CHECK(distkit::count_errors(all, distkit::ExitCode::usage) == 1);
}
