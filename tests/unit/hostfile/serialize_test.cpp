// Writing exactly what Python's json.dump(obj, f, indent=4) writes: key
// order, indentation, ensure_ascii escapes (checked against files Python
// wrote, see roundtrip_test.cpp) and the corner cases below.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"

using namespace distkit::hostfile;

namespace {
std::string ssh_line(const std::string& ssh) {
  Hostfile hf;
  hf.hosts = {{ssh, {}, {}}};
  std::string out = serialize(hf);
  size_t b = out.find("\"ssh\": ");
  return out.substr(b + 7, out.find(",\n", b) - b - 7);
}
}  // namespace

TEST_CASE("strings are escaped as Python's ensure_ascii does") {
  CHECK(ssh_line("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(ssh_line("\b\f\n\r\t") == "\"\\b\\f\\n\\r\\t\"");
  CHECK(ssh_line(std::string("\x01\x1f\x7f", 3)) == "\"\\u0001\\u001f\\u007f\"");
  CHECK(ssh_line(std::string("a\0b", 3)) == "\"a\\u0000b\"");
  CHECK(ssh_line("/ ~") == "\"/ ~\"");
  CHECK(ssh_line("\xC3\xA9\xE2\x82\xAC") == "\"\\u00e9\\u20ac\"");
  CHECK(ssh_line("\xF0\x9F\x98\x80") == "\"\\ud83d\\ude00\"");
}

TEST_CASE("bytes that are not UTF-8 are written as U+FFFD, never dropped silently") {
  CHECK(ssh_line("a\xff") == "\"a\\ufffd\"");
  CHECK(ssh_line("\xC3") == "\"\\ufffd\"");
  CHECK(ssh_line("\xED\xA0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");  // a UTF-16 surrogate
  CHECK(ssh_line("\xC0\xAF") == "\"\\ufffd\\ufffd\"");             // overlong '/'
}

TEST_CASE("no backend is written as the empty string, and there is no final newline") {
  Hostfile hf;
  hf.hosts = {{"a", {"10.0.0.1"}, {}}};
  std::string out = serialize(hf);
  CHECK(out.rfind("{\n    \"backend\": \"\",\n    \"envs\": [],\n", 0) == 0);
  CHECK(out.back() == '}');
}

TEST_CASE("serialize then parse gives the same model") {
  Hostfile hf;
  hf.backend = Backend::jaccl_ring;
  hf.envs = {"MLX_METAL_FAST_SYNCH=1"};
  hf.hosts = {
      {"a", {"10.0.0.1"}, {std::monostate{}, std::vector<std::string>{"rdma_en3", "rdma_en4"}}},
      {"b", {"10.0.0.2"}, {std::string("rdma_en3"), std::monostate{}}}};
  CHECK(parse(serialize(hf), "f") == hf);
}
