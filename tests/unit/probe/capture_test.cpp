// The capture format: sections come back byte for byte, and output that
// imitates markers without the run's boundary cannot forge a section.
#include "distkit/probe/capture.hpp"

#include "catch.hpp"
#include "distkit/util/error.hpp"
#include "render_capture.hpp"

using namespace distkit::probe;
using distkit::probe::test::render_capture;

TEST_CASE("a rendered capture parses back to the same sections") {
  Capture c;
  c.boundary = "DISTKIT-0123";
  c.sections["a"] = {"line one\nline two\n", 0};
  c.sections["empty"] = {"", 127};
  c.sections["no_newline"] = {"x", 3};
  Capture back = parse_capture(render_capture(c), "h1");
  REQUIRE(back.sections.size() == 3);
  CHECK(back.sections["a"].output == "line one\nline two\n");
  CHECK(back.sections["empty"].output.empty());
  CHECK(back.sections["empty"].status == 127);
  CHECK(back.sections["no_newline"].output == "x");
  CHECK(back.ok("a") != nullptr);
  CHECK(back.ok("empty") == nullptr);
  CHECK(back.find("empty") != nullptr);
}

TEST_CASE("command output cannot forge a section without the boundary") {
  std::string text =
      "distkit-probe 1 SECRET\n"
      "SECRET begin hostname\n"
      "X end hostname 0\nSECRET2 begin fake\n"
      "\nSECRET end hostname 0\n";
  Capture c = parse_capture(text, "h1");
  REQUIRE(c.sections.size() == 1);
  CHECK(c.sections["hostname"].output == "X end hostname 0\nSECRET2 begin fake\n");
}

TEST_CASE("a capture cut off mid-section keeps what was printed with status -1") {
  Capture c = parse_capture("distkit-probe 1 B\nB begin a\nhalf", "h1");
  CHECK(c.sections["a"].output == "half");
  CHECK(c.sections["a"].status == -1);
}

TEST_CASE("output without a capture header is a remote error naming the host") {
  try {
    parse_capture("zsh: command not found: sh\n", "studio-a");
    FAIL("expected an error");
  } catch (const distkit::RemoteError& e) {
    CHECK(std::string(e.what()) ==
          "studio-a: the probe printed no capture header; run with --verbose to see its output");
  }
}

TEST_CASE("boundaries are random 40-character tokens") {
  std::string a = make_boundary(), b = make_boundary();
  CHECK(a.size() == 40);
  CHECK(a.rfind("DISTKIT-", 0) == 0);
  CHECK(a != b);
}
