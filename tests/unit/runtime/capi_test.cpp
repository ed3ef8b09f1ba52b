// The C API: init from explicit JSON, a collective, and errors as status
// codes plus a message.
#include <sstream>
#include <thread>

#include "catch.hpp"
#include "distkit/distkit.h"
#include "harness.hpp"

TEST_CASE("the C API all-reduces across two ranks", "[runtime]") {
  auto ports = distkit::rt::test::free_ports(2);
  std::ostringstream json;
  json << "[[\"127.0.0.1:" << ports[0] << "\"],[\"127.0.0.1:" << ports[1] << "\"]]";
  std::string hf = json.str();
  int status[2] = {-1, -1}, sums[2] = {0, 0}, ranks[2] = {-1, -1};
  std::vector<std::thread> ts;
  for (int r = 0; r < 2; ++r)
    ts.emplace_back([&, r] {
      distkit_group* g = nullptr;
      status[r] = distkit_init(hf.c_str(), r, "00112233445566778899aabbccddeeff", 5000, &g);
      if (status[r] != DISTKIT_OK) return;
      ranks[r] = distkit_rank(g);
      int v = r + 1;
      status[r] = distkit_all_reduce(g, &v, &v, 1, DISTKIT_INT32, DISTKIT_SUM);
      sums[r] = v;
      distkit_finalize(g);
    });
  for (auto& t : ts) t.join();
  CHECK(status[0] == DISTKIT_OK);
  CHECK(status[1] == DISTKIT_OK);
  CHECK(ranks[1] == 1);
  CHECK(sums[0] == 3);
  CHECK(sums[1] == 3);
}

TEST_CASE("the C API reports errors as codes with a message", "[runtime]") {
  distkit_group* g = nullptr;
  CHECK(distkit_barrier(nullptr) == DISTKIT_ERR_INVALID_ARGUMENT);
  CHECK(std::string(distkit_last_error()) == "group: null handle");
  CHECK(distkit_init("[[\"127.0.0.1:1\"]", 0, nullptr, 0, &g) == DISTKIT_ERR_CONFIG);
  CHECK(std::string(distkit_last_error()) ==
        "hostfile: expected ']' at offset 16; expected [[\"ip:port\", ...], ...] (one list per "
        "rank)");
  REQUIRE(distkit_init("[[\"127.0.0.1:1\"]]", 0, nullptr, 0, &g) == DISTKIT_OK);
  CHECK(distkit_size(g) == 1);
  float x[2] = {1, 2};
  CHECK(distkit_all_reduce(g, x, x, 1, DISTKIT_COMPLEX64, DISTKIT_MAX) ==
        DISTKIT_ERR_INVALID_ARGUMENT);
  CHECK(distkit_all_reduce(g, x, x, 1, static_cast<distkit_dtype>(42), DISTKIT_SUM) ==
        DISTKIT_ERR_INVALID_ARGUMENT);
  CHECK(std::string(distkit_last_error()) == "dtype: unknown value 42");
  CHECK(distkit_all_reduce(g, x, x, 2, DISTKIT_FLOAT32, DISTKIT_SUM) == DISTKIT_OK);
  CHECK(std::string(distkit_last_error()) == "");
  distkit_finalize(g);
}
