#include "distkit/util/decimal.hpp"

#include <cstdint>

#include "catch.hpp"
#include "distkit/util/signal_names.hpp"

using distkit::parse_decimal;
using distkit::parse_digits;

TEST_CASE("parse_decimal: one whole number that fits, else nothing") {
  CHECK(parse_decimal<int>("42") == 42);
  CHECK(parse_decimal<int>("-7") == -7);
  CHECK_FALSE(parse_decimal<int>(""));
  CHECK_FALSE(parse_decimal<int>("12x"));
  CHECK_FALSE(parse_decimal<int>(" 12"));
  CHECK_FALSE(parse_decimal<int>("+12"));
  CHECK_FALSE(parse_decimal<int8_t>("300"));
  CHECK_FALSE(parse_decimal<unsigned>("-1"));
}

TEST_CASE("parse_digits: 1 to max_digits digits, no sign, no blank") {
  CHECK(parse_digits("0", 1) == 0L);
  CHECK(parse_digits("007", 3) == 7L);
  CHECK(parse_digits("999999999999999999", 18) == 999999999999999999L);
  CHECK_FALSE(parse_digits("", 5));
  CHECK_FALSE(parse_digits("1234", 3));
  CHECK_FALSE(parse_digits("-1", 5));
  CHECK_FALSE(parse_digits("+1", 5));
  CHECK_FALSE(parse_digits("1 ", 5));
  CHECK_FALSE(parse_digits("1e3", 5));
}

TEST_CASE("signal_number: a name with or without SIG, or up to 9 digits") {
  CHECK(distkit::signal_number("TERM") == SIGTERM);
  CHECK(distkit::signal_number("SIGKILL") == SIGKILL);
  CHECK(distkit::signal_number("15") == 15);
  CHECK(distkit::signal_number("1234567890") == 0);
  CHECK(distkit::signal_number("-15") == 0);
  CHECK(distkit::signal_number("NOPE") == 0);
}
