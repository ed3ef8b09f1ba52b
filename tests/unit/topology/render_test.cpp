// DOT with asymmetric links, the connection matrix, Recovery steps.
#include "distkit/topology/render.hpp"

#include "builders.hpp"
#include "catch.hpp"

using namespace distkit;
using namespace distkit::topology;

TEST_CASE("DOT draws a link only one side lists, dashed, which MLX drops") {
  auto x = test::mac("x", 2), y = test::mac("y", 2);
  test::cable(y, 1, x, 2, "80 Gb/s", false);  // only y (the higher host) lists it
  auto t = build_topology({x, y});
  CHECK(render_dot(t) ==
        "graph G {\n  node [shape=rectangle];\n  a [label=\"x\"];\n  b [label=\"y\"];\n"
        "  a -- b [label=\"en3/en2\", style=dashed] // asymmetric: only y lists it\n}\n");
}

TEST_CASE("the connection matrix counts cables and stars asymmetric pairs") {
  auto x = test::mac("x", 3), y = test::mac("yy", 3), z = test::mac("z", 3);
  test::cable(x, 1, y, 1);
  test::cable(x, 2, y, 2);
  test::cable(y, 3, z, 1, "80 Gb/s", false);
  auto t = build_topology({x, y, z});
  CHECK(render_matrix(t) ==
        "     x  yy   z\n"
        " x   -   2   0\n"
        "yy   2   -  1*\n"
        " z   0  1*   -\n");
}

TEST_CASE("Recovery steps are numbered and name the host and its devices") {
  auto x = test::mac("studio-c", 2);
  auto t = build_topology({x});
  std::string s = render_recovery(t, {0, {"rdma_en3", "rdma_en4"}});
  CHECK(s ==
        "To enable RDMA on studio-c (it cannot be enabled remotely, even with sudo):\n"
        "  1. Shut down, then start in macOS Recovery: hold the power button until the startup "
        "options appear, then choose Options.\n"
        "  2. Open Utilities > Terminal.\n"
        "  3. Run: rdma_ctl enable\n"
        "  4. Restart the Mac.\n"
        "  5. Verify: `ibv_devices` lists rdma_en3, rdma_en4 (or `rdma_ctl status` prints "
        "enabled).\n");
}
