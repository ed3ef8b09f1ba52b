// The one JSON-as-Python writer: expected strings are what CPython 3.11's
// json.dumps (ensure_ascii=True) prints for the same input.
#include "distkit/util/json_text.hpp"

#include "catch.hpp"

TEST_CASE("json_string escapes as Python's json.dumps does") {
  CHECK(distkit::json_string("rdma_en3") == "\"rdma_en3\"");
  CHECK(distkit::json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  // Control characters: the short escapes, else \u00XX in lower-case hex.
  CHECK(distkit::json_string("\n\t\x01\x7f") == "\"\\n\\t\\u0001\\u007f\"");
  // Non-ASCII: \uXXXX, a surrogate pair above U+FFFF.
  CHECK(distkit::json_string("\xC3\xA9\xF0\x9F\x98\x80") == "\"\\u00e9\\ud83d\\ude00\"");
  // Bytes that are not UTF-8 cannot reach Python: written as U+FFFD.
  CHECK(distkit::json_string("\xff") == "\"\\ufffd\"");
}

TEST_CASE("quote keeps an error message to one short line") {
  CHECK(distkit::quote("a\nb") == "\"a\\nb\"");
  std::string long_value(200, 'x');
  std::string q = distkit::quote(long_value);
  CHECK(q.size() < 70);
  CHECK(q.substr(q.size() - 4) == "...\"");
}
