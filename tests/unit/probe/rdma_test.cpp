// ibv_devices, ibv_devinfo and rdma_ctl on every real capture.
#include "distkit/probe/rdma.hpp"

#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::probe;
using distkit::test::read_data;

namespace {
std::vector<std::string> names(const std::string& f) {
  std::vector<std::string> out;
  for (auto& d : parse_ibv_devices(read_data("probe/" + f))) out.push_back(d.name);
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("ibv_devices lists devices in the order printed, whatever the layout") {
  CHECK(names("ibv_devices_m3ultra_mlx_docs.txt") ==
        V{"rdma_en2", "rdma_en3", "rdma_en5", "rdma_en4", "rdma_en6", "rdma_en7"});
  CHECK(names("ibv_devices_3ports_mlx_jaccl_readme.txt") == V{"rdma_en2", "rdma_en3", "rdma_en5"});
  CHECK(names("ibv_devices_m4pro_macmini_apple_tn3205.txt") ==
        V{"rdma_en2", "rdma_en3", "rdma_en4"});
  CHECK(names("ibv_devices_m4pro_macmini_macos26.2_guid_redacted_mlx2944.txt") ==
        V{"rdma_en2", "rdma_en3", "rdma_en4"});
  CHECK(names("ibv_devices_m5max_mbp_B_rdma_enabled_anonymized.txt") ==
        V{"rdma_en1", "rdma_en6", "rdma_en2"});
}

TEST_CASE("ibv_devices with RDMA disabled, or on TB4, lists nothing") {
  CHECK(names("ibv_devices_m5max_mbp_A_rdma_disabled_header_only.txt").empty());
  CHECK(names("ibv_devices_tb4_mac_rdma_enabled_no_devices_omlx3037.txt").empty());
}

TEST_CASE("ibv_devinfo gives each device's port state") {
  auto down =
      parse_ibv_devinfo(read_data("probe/ibv_devinfo_m5max_mbp_B_port_down_anonymized.txt"));
  REQUIRE(down.size() == 3);
  CHECK(down[1].device == "rdma_en6");
  CHECK(down[1].state == "PORT_DOWN");
  CHECK_FALSE(down[1].active());
  auto up = parse_ibv_devinfo(
      read_data("probe/ibv_devinfo_m4pro_macmini_4node_mesh_apple_tn3205_elided.txt"));
  REQUIRE(up.size() == 3);
  CHECK(up[2].device == "rdma_en4");
  CHECK(up[2].active());
  auto joined = parse_ibv_devinfo(
      read_data("probe/ibv_devinfo_v_rdma_en2_gid_table_apple_tn3205_partial.txt"));
  REQUIRE(joined.size() == 1);
  CHECK(joined[0].device == "rdma_en2");
  CHECK(joined[0].active());
}

TEST_CASE("rdma_ctl status says enabled, disabled or something unknown") {
  CHECK(parse_rdma_ctl_status(read_data(
            "probe/rdma_ctl_status_enabled_m4pro_macmini_mlx2944.txt")) == RdmaCtl::enabled);
  CHECK(parse_rdma_ctl_status(read_data("probe/rdma_ctl_status_enabled_tb4_mac_omlx3037.txt")) ==
        RdmaCtl::enabled);
  CHECK(parse_rdma_ctl_status("disabled\n") == RdmaCtl::disabled);
  CHECK(parse_rdma_ctl_status("usage: rdma_ctl ...") == RdmaCtl::unknown);
}

TEST_CASE("Linux infiniband listing maps sysfs states to ibv_devinfo names") {
  auto p = parse_linux_infiniband("mlx5_0\t1\t4: ACTIVE\nmlx5_1\t1\t1: DOWN\nbroken line\n");
  REQUIRE(p.size() == 2);
  CHECK(p[0].state == "PORT_ACTIVE");
  CHECK(p[1].state == "PORT_DOWN");
}

TEST_CASE("ibv_devinfo -v gives each port's state and its IPv4-mapped GID (TN3205's capture)") {
  auto ports = parse_ibv_devinfo_verbose(
      read_data("probe/ibv_devinfo_v_rdma_en2_gid_table_apple_tn3205_partial.txt"));
  REQUIRE(ports.size() == 1);
  CHECK(ports[0].port.device == "rdma_en2");
  CHECK(ports[0].port.port == 1);
  CHECK(ports[0].port.active());
  CHECK(ports[0].gids ==
        V{"fe80::344d:4ff:feea:4e40", "::ffff:169.254.205.255", "fe80::1021:1bac:fe1:b5e3"});
  CHECK(ports[0].ipv4_mapped() == "169.254.205.255");
}

TEST_CASE("a port whose GID table holds no IPv4-mapped entry has no usable GID") {
  // The capture's table without its IPv4-mapped line: what a port whose
  // interface has no IPv4 address shows.
  auto text = read_data("probe/ibv_devinfo_v_rdma_en2_gid_table_apple_tn3205_partial.txt");
  text.erase(text.find("            GID[  1]"),
             text.find("            GID[  2]") - text.find("            GID[  1]"));
  auto ports = parse_ibv_devinfo_verbose(text);
  REQUIRE(ports.size() == 1);
  CHECK(ports[0].gids.size() == 2);
  CHECK(ports[0].ipv4_mapped().empty());
}

TEST_CASE("ibv_devinfo -v without GID lines (the plain listings) still gives port states") {
  auto ports = parse_ibv_devinfo_verbose(
      read_data("probe/ibv_devinfo_m5max_mbp_B_port_down_anonymized.txt"));
  REQUIRE(ports.size() == 3);
  CHECK(ports[1].port.device == "rdma_en6");
  CHECK(ports[1].port.state == "PORT_DOWN");
  CHECK(ports[1].gids.empty());
}
