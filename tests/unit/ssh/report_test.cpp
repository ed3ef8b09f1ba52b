// describe_failure: one actionable line per failed host command.
#include "distkit/ssh/report.hpp"

#include "catch.hpp"
#include "distkit/ssh/local_executor.hpp"

using distkit::ssh::CommandResult;
using distkit::ssh::describe_failure;

TEST_CASE("a successful command has nothing to report") {
  CommandResult r;
  r.exit.exit_status = 0;
  CHECK_FALSE(describe_failure("h1", "probe", r).has_value());
}

TEST_CASE("a missing command is reported as not found with the shell's words") {
  distkit::ssh::LocalExecutor ex;
  auto r = ex.run("distkit-no-such-tool --version");
  auto line = describe_failure("mac1", "probe", r);
  REQUIRE(line);
  CHECK(line->rfind("mac1: probe: command not found (exit 127) (", 0) == 0);
  CHECK(line->find("distkit-no-such-tool") != std::string::npos);
  CHECK(line->substr(line->find(';')) ==
        "; install it on that host or give its full path (SSH sessions do not read shell "
        "profiles)");
}

TEST_CASE("a timeout and a lost connection say what to check") {
  CommandResult r;
  r.exit.error = "timed out after 500 ms";
  CHECK(*describe_failure("h2", "rank 3", r) ==
        "h2: rank 3: timed out after 500 ms; raise the timeout or check what the host is doing");
  r.exit.error = "connection to h2 lost: no answer to 3 keepalives in 3000 ms";
  CHECK(*describe_failure("h2", "rank 3", r) ==
        "h2: rank 3: connection to h2 lost: no answer to 3 keepalives in 3000 ms; check the host "
        "and its network link, then rerun");
}

TEST_CASE("a signal and a plain failure quote the last stderr line") {
  CommandResult r;
  r.exit.signal = 9;
  r.err = "starting\n\n";
  CHECK(*describe_failure("h3", "probe", r) ==
        "h3: probe: killed by signal 9 (starting); check the host's logs (out of memory?)");
  CommandResult f;
  f.exit.exit_status = 3;
  f.err = "warming up\nerror: no GPU\n";
  CHECK(*describe_failure("h3", "probe", f) == "h3: probe: exited with status 3 (error: no GPU)");
}
