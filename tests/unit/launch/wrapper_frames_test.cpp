// The compiled rank wrapper's frame reader (apps/agent/frames.cpp):
// frames split anywhere by the transport come out whole, data frames carry
// exactly their bytes (newlines and NULs included), unknown lines are
// reported as such, and signal names map as the launcher sends them.
#include <csignal>
#include <string>

#include "catch.hpp"
#include "distkit/launch/wrapper.hpp"
#include "distkit/util/signal_names.hpp"
#include "frames.hpp"

using distkit_agent::FrameReader;

TEST_CASE("the wrapper's frame reader reassembles frames split anywhere", "[launch][wrapper]") {
  namespace f = distkit::launch::frame;
  const std::string payload("line\n\0tail", 10);
  const std::string stream = f::secret("c0ffee") + f::heartbeat() + f::data(payload) +
                             f::end_of_input() + f::signal("INT") + f::terminate() + f::kill() +
                             "bogus\n";
  for (std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{7}, stream.size()}) {
    INFO("fed " << step << " bytes at a time");
    FrameReader r;
    std::string kinds, secret, data, sig, bogus;
    for (std::size_t at = 0; at < stream.size(); at += step) {
      r.feed(stream.data() + at, std::min(step, stream.size() - at));
      while (auto fr = r.next()) {
        kinds += fr->kind;
        if (fr->kind == 'S') secret = fr->payload;
        if (fr->kind == 'D') data = fr->payload;
        if (fr->kind == 'G') sig = fr->payload;
        if (fr->kind == '?') bogus = fr->line;
      }
    }
    CHECK(kinds == "SHDEGTK?");
    CHECK(secret == "c0ffee");
    CHECK(data == payload);
    CHECK(sig == "INT");
    CHECK(bogus == "bogus");
    CHECK(r.buffered() == 0);
  }
}

TEST_CASE("the wrapper's frame reader waits for a data frame's bytes", "[launch][wrapper]") {
  FrameReader r;
  r.feed("D 5\nab", 6);
  CHECK_FALSE(r.next());
  r.feed("cde", 3);
  auto fr = r.next();
  REQUIRE(fr);
  CHECK(fr->payload == "abcde");
  // A length that is not a number is not a data frame (its bytes are lines).
  r.feed("D x\n", 4);
  fr = r.next();
  REQUIRE(fr);
  CHECK(fr->kind == '?');
}

TEST_CASE("signal names map as the launcher sends them", "[launch][wrapper]") {
  using distkit::signal_number;
  CHECK(signal_number("INT") == SIGINT);
  CHECK(signal_number("TERM") == SIGTERM);
  CHECK(signal_number("SIGHUP") == SIGHUP);
  CHECK(signal_number("USR1") == SIGUSR1);
  CHECK(signal_number("9") == 9);
  CHECK(signal_number("NOPE") == 0);
  CHECK(signal_number("") == 0);
  // One table both ways: every name the launcher sends reads back.
  for (const auto& s : distkit::kSignalNames) {
    INFO(s.name);
    CHECK(signal_number(distkit::signal_name(s.number)) == s.number);
  }
  CHECK(distkit::signal_name(0) == "0");
}
