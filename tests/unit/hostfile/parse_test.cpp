// Reading both MLX forms, and the exact errors for input that is not a
// hostfile: bad JSON (with line and column), wrong types named by JSON path,
// unknown keys, unbounded input.
#include <string>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "error_text.hpp"

using namespace distkit::hostfile;
using distkit::hostfile::test::parse_error;

TEST_CASE("a bare list of hosts reads with defaults and no backend") {
  Hostfile hf = parse(R"([{"ssh": "a", "ips": ["10.0.0.1"]}, {"ssh": "b"}])", "f");
  CHECK_FALSE(hf.backend.has_value());
  CHECK(hf.envs.empty());
  REQUIRE(hf.hosts.size() == 2);
  CHECK(hf.hosts[0] == Host{"a", {"10.0.0.1"}, {}});
  CHECK(hf.hosts[1] == Host{"b", {}, {}});
}

TEST_CASE("the object form reads backend, envs and hosts; backend and envs are optional") {
  Hostfile hf = parse(R"({"backend": "", "envs": ["A=1", "B="], "hosts": [{"ssh": "a"}]})", "f");
  CHECK(hf.backend == Backend::none);
  CHECK(hf.envs == std::vector<std::string>{"A=1", "B="});
  Hostfile bare = parse(R"({"hosts": [{"ssh": "a"}]})", "f");
  CHECK_FALSE(bare.backend.has_value());
}

TEST_CASE("a bare list is written in the object form with an empty backend") {
  CHECK(serialize(parse(R"([{"ssh":"a"}])", "f")) ==
        "{\n    \"backend\": \"\",\n    \"envs\": [],\n    \"hosts\": [\n        {\n"
        "            \"ssh\": \"a\",\n            \"ips\": [],\n            \"rdma\": []\n"
        "        }\n    ]\n}");
}

TEST_CASE("hostfile errors are usage errors with exit status 2") {
  try {
    parse("[]", "f");
    FAIL("no error");
  } catch (const distkit::UsageError& e) {
    CHECK(e.exit_code() == distkit::ExitCode::usage);
  }
}

TEST_CASE("invalid JSON names the line and column and what was found") {
  CHECK(parse_error("[\n  {\"ssh\": \"a\",}\n]") ==
        "hosts.json: invalid JSON at line 2, column 15: unexpected '}', expected a quoted key; "
        "fix the JSON syntax there");
  CHECK(parse_error("[{\"ssh\" \"a\"}]") ==
        "hosts.json: invalid JSON at line 1, column 11: unexpected string, expected ':'; "
        "fix the JSON syntax there");
  CHECK(parse_error("[{\"ssh\": \"a\"}") ==
        "hosts.json: invalid JSON at line 1, column 14: unexpected end of file, expected ',' or "
        "']'; fix the JSON syntax there");
  CHECK(parse_error("[{\"ssh\": \"a\"}] x") ==
        "hosts.json: invalid JSON at line 1, column 16: unexpected 'x', expected end of file; "
        "fix the JSON syntax there");
  CHECK(parse_error("[tru]") ==
        "hosts.json: invalid JSON at line 1, column 5: unexpected ']'; fix the JSON syntax there");
}

TEST_CASE("broken strings are named: bad UTF-8, raw control characters, no closing quote") {
  CHECK(parse_error("[{\"ssh\": \"a\xff\"}]") ==
        "hosts.json: invalid JSON at line 1, column 12: invalid UTF-8 in a string; "
        "fix the JSON syntax there");
  CHECK(parse_error("[{\"ssh\": \"a\nb\"}]") ==
        "hosts.json: invalid JSON at line 1, column 12: unescaped control character in a string; "
        "fix the JSON syntax there");
  CHECK(parse_error("[{\"ssh\": \"a") ==
        "hosts.json: invalid JSON at line 1, column 12: unterminated string; "
        "fix the JSON syntax there");
  CHECK(parse_error("[\"\\x\"]") ==
        "hosts.json: invalid JSON at line 1, column 4: invalid escape sequence in a string; "
        "fix the JSON syntax there");
}

TEST_CASE("empty, huge-number and non-text input give one-line errors") {
  CHECK(parse_error("") ==
        "hosts.json: is empty; write a hostfile, e.g. [{\"ssh\": \"studio-a\"}]");
  CHECK(parse_error(" \n\t") ==
        "hosts.json: is empty; write a hostfile, e.g. [{\"ssh\": \"studio-a\"}]");
  CHECK(parse_error("[1e999]") ==
        "hosts.json: invalid JSON: a number is out of range; "
        "a hostfile holds only strings, lists, objects and null");
  CHECK(parse_error(std::string("\x00\x01", 2)) ==
        "hosts.json: invalid JSON at line 1, column 1: unexpected byte 0x00; fix the JSON syntax "
        "there");
  CHECK(parse_error(std::string("[{\"ssh\": \"a\"}]\n\x00[", 16)) ==
        "hosts.json: invalid JSON at line 2, column 1: unexpected byte 0x00; fix the JSON syntax "
        "there");
  CHECK(parse_error("\x01") ==
        "hosts.json: invalid JSON at line 1, column 1: unexpected byte 0x01; fix the JSON syntax "
        "there");
}

TEST_CASE("deep nesting is refused before any parsing") {
  CHECK(parse_error(std::string(100000, '[')) ==
        "hosts.json: nested deeper than 32 levels at line 1, column 33; "
        "a hostfile nests 5 levels at most; check the file");
  // Brackets inside strings do not count.
  Hostfile hf = parse("[{\"ssh\": \"" + std::string(100, '[') + "\"}]", "f");
  CHECK(hf.hosts[0].ssh.size() == 100);
}

TEST_CASE("text over 64 MiB is refused without parsing") {
  std::string big(kMaxHostfileBytes + 1, ' ');
  CHECK(parse_error(big) ==
        "hosts.json: is larger than 64 MiB; give a hostfile (they are a few KiB)");
}

TEST_CASE("wrong types name the JSON path, what was expected and what was found") {
  CHECK(parse_error("\"hosts\"") ==
        "hosts.json: top level: expected an object or a list of hosts, found a string; write "
        "{\"hosts\": [{\"ssh\": \"studio-a\"}, ...]} or [{\"ssh\": \"studio-a\"}, ...]");
  CHECK(parse_error("{\"hosts\": {}}") ==
        "hosts.json: hosts: expected a list of hosts, found an object; write e.g. \"hosts\": "
        "[{\"ssh\": \"studio-a\"}, {\"ssh\": \"studio-b\"}]");
  CHECK(parse_error("[{\"ssh\": \"a\"}, \"b\"]") ==
        "hosts.json: hosts[1]: expected an object, found a string; write each host as "
        "{\"ssh\": \"name\", \"ips\": [...], \"rdma\": [...]}");
  CHECK(parse_error("[{\"ssh\": 7}]") ==
        "hosts.json: hosts[0].ssh: expected a string, found a number; write e.g. \"ssh\": "
        "\"studio-a\"");
  CHECK(parse_error("[{\"ssh\": \"a\"}, {\"ssh\": \"b\"}, {\"ssh\": \"c\", \"ips\": [null]}]") ==
        "hosts.json: hosts[2].ips[0]: expected a string, found null; write e.g. \"ips\": "
        "[\"192.168.0.2\"]");
  CHECK(parse_error("[{\"ssh\": \"a\", \"ips\": \"10.0.0.1\"}]") ==
        "hosts.json: hosts[0].ips: expected a list of strings, found a string; write e.g. \"ips\": "
        "[\"192.168.0.2\"]");
  CHECK(parse_error("[{\"ssh\": \"a\", \"rdma\": {}}]") ==
        "hosts.json: hosts[0].rdma: expected a list, found an object; write e.g. \"rdma\": "
        "[null, \"rdma_en3\"], or [] without RDMA");
  CHECK(parse_error("[{\"ssh\": \"a\", \"rdma\": [true]}]") ==
        "hosts.json: hosts[0].rdma[0]: expected null, a device name or a list of device names, "
        "found true/false; write null, \"rdma_en3\" or [\"rdma_en3\", \"rdma_en4\"]");
  CHECK(parse_error("[{\"ssh\": \"a\", \"rdma\": [[1]]}]") ==
        "hosts.json: hosts[0].rdma[0][0]: expected a string, found a number; write null, "
        "\"rdma_en3\" or [\"rdma_en3\", \"rdma_en4\"]");
  CHECK(parse_error("{\"backend\": null, \"hosts\": [{\"ssh\": \"a\"}]}") ==
        "hosts.json: backend: expected a string, found null; write e.g. \"backend\": \"ring\"");
  CHECK(parse_error("{\"envs\": [\"A=1\", 2], \"hosts\": [{\"ssh\": \"a\"}]}") ==
        "hosts.json: envs[1]: expected a string, found a number; write e.g. \"envs\": "
        "[\"MLX_RING_VERBOSE=1\"]");
}

TEST_CASE("missing required keys are named") {
  CHECK(parse_error("{\"backend\": \"ring\"}") ==
        "hosts.json: has no \"hosts\" list; add \"hosts\": [{\"ssh\": \"studio-a\"}, ...]");
  CHECK(parse_error("[{\"ips\": [\"10.0.0.1\"]}]") ==
        "hosts.json: hosts[0]: has no \"ssh\"; add \"ssh\": \"<host name>\"");
}

TEST_CASE("unknown keys are refused with a did-you-mean or the list of keys") {
  CHECK(parse_error("[{\"ssh\": \"a\", \"ip\": [\"10.0.0.1\"]}]") ==
        "hosts.json: hosts[0]: unknown key \"ip\"; did you mean \"ips\"?");
  CHECK(parse_error("[{\"ssh\": \"a\", \"port\": 22}]") ==
        "hosts.json: hosts[0]: unknown key \"port\"; the keys are \"ssh\", \"ips\", \"rdma\"");
  CHECK(parse_error("{\"host\": []}") ==
        "hosts.json: unknown key \"host\"; did you mean \"hosts\"?");
}

TEST_CASE("an unknown backend suggests the closest name") {
  CHECK(parse_error("{\"backend\": \"jacl\", \"hosts\": [{\"ssh\": \"a\"}]}") ==
        "hosts.json: backend: unknown backend \"jacl\"; did you mean \"jaccl\"?");
  CHECK(parse_error("{\"backend\": \"RING\", \"hosts\": [{\"ssh\": \"a\"}]}") ==
        "hosts.json: backend: unknown backend \"RING\"; did you mean \"ring\"?");
  CHECK(parse_error("{\"backend\": \"infiniband\", \"hosts\": [{\"ssh\": \"a\"}]}") ==
        "hosts.json: backend: unknown backend \"infiniband\"; use one of \"ring\", \"jaccl\", "
        "\"jaccl-ring\", \"nccl\", \"mpi\" or \"\" (none)");
}

TEST_CASE("backend names convert both ways") {
  for (Backend b : {Backend::none, Backend::ring, Backend::jaccl, Backend::jaccl_ring,
                    Backend::nccl, Backend::mpi})
    CHECK(parse_backend(to_string(b), "--backend") == b);
  CHECK(to_string(Backend::jaccl_ring) == "jaccl-ring");
  CHECK(distkit::hostfile::test::usage_error_of([] { parse_backend("rign", "--backend"); }) ==
        "--backend: unknown backend \"rign\"; did you mean \"ring\"?");
}

TEST_CASE("more than 4096 hosts are refused before reading them") {
  std::string text = "[";
  for (int i = 0; i < 4097; ++i) text += i ? ",1" : "1";
  text += "]";
  CHECK(parse_error(text) ==
        "hosts.json: hosts: has 4097 entries, more than the 4096 distkit accepts; "
        "split the cluster into several hostfiles");
}
