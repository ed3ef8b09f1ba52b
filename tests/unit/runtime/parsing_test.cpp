// Outside input the runtime parses: frame headers, the MLX ring hostfile,
// the secret file, the environment; plus HMAC against RFC 4231.
#include <cstdlib>
#include <fstream>

#include "catch.hpp"
#include "distkit/runtime/config.hpp"
#include "rendezvous/hmac.hpp"
#include "test_data.hpp"
#include "transport/frame.hpp"

using namespace distkit::rt;

namespace {
std::string config_error(const std::string& json) {
  try {
    parse_ring_hostfile(json, "hf.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("a frame header round-trips and mismatches are described", "[runtime]") {
  FrameHeader h{FrameOp::all_reduce, 7, 3, 4096};
  auto b = encode_frame(h);
  CHECK(check_frame(b.data(), b.size(), h) == "");
  FrameHeader other = h;
  other.op = FrameOp::broadcast;
  CHECK(check_frame(b.data(), b.size(), other) ==
        "expected a broadcast frame, got all_reduce (ranks called different collectives)");
  other = h;
  other.length = 4097;
  CHECK(check_frame(b.data(), b.size(), other) ==
        "frame of 4096 bytes, expected 4097 (ranks passed different counts or dtypes)");
  other = h;
  other.seq = 4;
  CHECK(check_frame(b.data(), b.size(), other) == "frame out of sequence (3, expected 4)");
  b[0] ^= 1;
  CHECK(check_frame(b.data(), b.size(), h) == "bad frame magic 0x31464b45");
  CHECK(check_frame(b.data(), 10, h) == "short frame header (10 bytes)");
}

TEST_CASE("the MLX ring hostfile parses into per-rank endpoints", "[runtime]") {
  // The MLX_HOSTFILE contents of the 2-connection double-cable fixture.
  auto eps = parse_ring_hostfile(distkit::test::read_data("runtime/ring_hostfile_2conn.json"), "x");
  REQUIRE(eps.size() == 2);
  REQUIRE(eps[0].size() == 4);
  CHECK(eps[0][0].host == "192.168.0.1");
  CHECK(eps[0][0].port == 32323);
  CHECK(eps[0][2].host == "192.168.0.5");
  CHECK(eps[1][3].host == "192.168.0.6");
  CHECK(eps[1][3].port == 32330);
  auto v6 = parse_ring_hostfile(R"([["[fe80::1]:5000"]])", "x");
  CHECK(v6[0][0].host == "fe80::1");
}

TEST_CASE("a malformed ring hostfile is refused with the offset", "[runtime]") {
  CHECK(config_error("[[\"10.0.0.1:70000\"]]") ==
        "hf.json: \"10.0.0.1:70000\" has a port outside 1-65535 at offset 18; expected "
        "[[\"ip:port\", ...], ...] (one list per rank)");
  CHECK(config_error("[]") ==
        "hf.json: no ranks at offset 2; expected [[\"ip:port\", ...], ...] (one list per rank)");
  CHECK(config_error("[[]]") ==
        "hf.json: a rank with no addresses at offset 3; expected [[\"ip:port\", ...], ...] (one "
        "list per rank)");
  CHECK(config_error("[[\"a:1\"]] x") ==
        "hf.json: trailing characters at offset 10; expected [[\"ip:port\", ...], ...] (one list "
        "per rank)");
  // Found by fuzzing: a 290-character host with colons was accepted, but
  // written back bracketed it no longer fit the 300-character string limit.
  CHECK(config_error("[[\"" + std::string(256, 'h') + ":1\"]]") ==
        "hf.json: host longer than 255 characters at offset 262; expected [[\"ip:port\", ...], "
        "...] (one list per rank)");
  CHECK(parse_ring_hostfile("[[\"[" + std::string(255, 'h') + "]:1\"]]", "x")[0][0].host.size() ==
        255);
  CHECK(config_error("[[\"nohost\"]]") != "");
  CHECK(config_error("[[\"a:1\"") != "");
}

TEST_CASE("the secret file must hold hex digits", "[runtime]") {
  CHECK(decode_secret_hex("00112233445566778899aabbccddeeff\n", "s").size() == 16);
  try {
    decode_secret_hex("xyz", "/tmp/secret");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "/tmp/secret: not a hex secret of 16 to 512 bytes; the launcher writes one line of hex "
          "digits");
  }
}

TEST_CASE("without a secret file the environment config demands DISTKIT_INSECURE", "[runtime]") {
  std::string path = "/tmp/distkit-h5-hf-" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << R"([["127.0.0.1:40000"],["127.0.0.1:40001"]])";
  setenv("MLX_HOSTFILE", path.c_str(), 1);
  setenv("MLX_RANK", "1", 1);
  unsetenv("DISTKIT_SECRET_FILE");
  unsetenv("DISTKIT_INSECURE");
  try {
    config_from_environment();
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "DISTKIT_SECRET_FILE: not set, so peers cannot be authenticated; run under distlaunch, "
          "or set DISTKIT_INSECURE=1 on a trusted network");
  }
  setenv("DISTKIT_INSECURE", "1", 1);
  Config c = config_from_environment();
  CHECK(c.rank == 1);
  CHECK(c.size() == 2);
  CHECK(c.insecure);
  CHECK(c.spin == std::chrono::microseconds(20));
  setenv("DISTKIT_SPIN_US", "0", 1);
  CHECK(config_from_environment().spin == std::chrono::microseconds(0));
  setenv("DISTKIT_SPIN_US", "20000", 1);  // above the 10 ms bound
  try {
    config_from_environment();
    FAIL("DISTKIT_SPIN_US=20000 accepted");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) ==
          "DISTKIT_SPIN_US: '20000' is not a number in 0..10000; fix or unset it");
  }
  unsetenv("DISTKIT_SPIN_US");
  setenv("MLX_RANK", "2", 1);
  CHECK_THROWS_AS(config_from_environment(), Error);
  unsetenv("MLX_HOSTFILE");
  unsetenv("MLX_RANK");
  unsetenv("DISTKIT_INSECURE");
  std::remove(path.c_str());
}

TEST_CASE("HMAC-SHA256 matches RFC 4231 test case 2", "[runtime]") {
  Mac m = hmac_sha256("Jefe", "what do ya want for nothing?");
  static const char* hex = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
  std::string got;
  for (auto b : m) {
    char buf[3];
    std::snprintf(buf, sizeof buf, "%02x", b);
    got += buf;
  }
  CHECK(got == hex);
}

TEST_CASE("an abort frame carries the culprit and a printable message", "[runtime]") {
  std::string f = encode_abort("rank 2 (h3): no progress\x01", 2);
  const auto* p = reinterpret_cast<const unsigned char*>(f.data());
  long n = abort_payload_length(p, f.size());
  REQUIRE(n == static_cast<long>(f.size() - kFrameHeaderSize));
  int culprit = -1;
  CHECK(decode_abort(p + kFrameHeaderSize, static_cast<size_t>(n), culprit) ==
        "rank 2 (h3): no progress?");
  CHECK(culprit == 2);
  FrameHeader data{FrameOp::p2p, 1, 0, 8};
  CHECK(abort_payload_length(encode_frame(data).data(), kFrameHeaderSize) == -1);
  FrameHeader huge{FrameOp::abort, 0, 0, 1 << 20};
  CHECK(abort_payload_length(encode_frame(huge).data(), kFrameHeaderSize) == -1);
}
