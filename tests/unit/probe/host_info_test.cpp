// Building a host's picture from a capture, and choosing its management
// address: the interface that routes to the launcher wins over en0.
#include "distkit/probe/host_info.hpp"

#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::probe;
using distkit::test::read_data;

namespace {
Capture mac_capture() {
  Capture c;
  c.boundary = "B";
  c.sections["uname"] = {"Darwin 25.2.0 arm64\n", 0};
  c.sections["sw_vers"] = {
      "ProductName:\t\tmacOS\nProductVersion:\t\t26.2\nBuildVersion:\t\t25C56\n", 0};
  c.sections["system_profiler_SPThunderboltDataType"] = {
      read_data("probe/system_profiler_tb_m5max_mbp_B_rdma_enabled_anonymized.json"), 0};
  c.sections["networksetup_listallhardwareports"] = {
      read_data("probe/networksetup_m5max_mbp_B_anonymized_macs.txt"), 0};
  c.sections["ibv_devices"] = {
      read_data("probe/ibv_devices_m5max_mbp_B_rdma_enabled_anonymized.txt"), 0};
  c.sections["ibv_devinfo"] = {read_data("probe/ibv_devinfo_m5max_mbp_B_port_down_anonymized.txt"),
                               0};
  c.sections["ifconfig_bridge0"] = {
      read_data("probe/ifconfig_bridge0_3members_inactive_walljm_excerpt.txt"), 0};
  c.sections["ifconfig"] = {
      "en0: flags=8863<UP> mtu 1500\n\tinet 192.168.1.23 netmask 0xffffff00\n"
      "en7: flags=8863<UP> mtu 1500\n\tinet 10.0.5.3 netmask 0xffffff00\n",
      0};
  c.sections["ipconfig_getifaddr_en0"] = {"192.168.1.23\n", 0};
  c.sections["sudo"] = {"", 1};
  return c;
}
}  // namespace

TEST_CASE("a macOS capture becomes a host picture") {
  auto h = build_host_info("mbp-b", mac_capture());
  CHECK(h.macos);
  CHECK(h.os.version == "26.2");
  CHECK(h.has_thunderbolt);
  CHECK(h.thunderbolt.ports.size() == 3);
  CHECK(h.has_rdma_device("rdma_en6"));
  CHECK_FALSE(h.has_rdma_device("rdma_en3"));
  CHECK(h.rdma_port_state("rdma_en6") == "PORT_DOWN");
  REQUIRE(h.bridge0);
  CHECK(h.bridge0->status == "inactive");
  REQUIRE(h.passwordless_sudo);
  CHECK_FALSE(*h.passwordless_sudo);
  CHECK(h.notes.empty());
}

TEST_CASE("management address: the route to the launcher beats en0") {
  auto c = mac_capture();
  CHECK(build_host_info("h", c).management_address() == "192.168.1.23");
  c.sections["route_to_launcher"] = {"   route to: 10.0.5.1\n  interface: en7\n", 0};
  CHECK(build_host_info("h", c).management_address() == "10.0.5.3");
  c.sections["route_to_launcher"] = {"local 127.0.0.1 dev lo src 127.0.0.1 uid 0\n", 0};
  CHECK(build_host_info("h", c).management_address() == "127.0.0.1");
}

TEST_CASE("management address falls back to the SSH server address, then en1") {
  Capture c;
  c.boundary = "B";
  c.sections["ssh_connection"] = {"10.9.0.1 51234 10.9.0.12 22\n", 0};
  c.sections["ipconfig_getifaddr_en0"] = {"", 1};
  c.sections["ipconfig_getifaddr_en1"] = {"192.168.7.7\n", 0};
  CHECK(build_host_info("h", c).management_address() == "10.9.0.12");
  c.sections.erase("ssh_connection");
  CHECK(build_host_info("h", c).management_address() == "192.168.7.7");
}

TEST_CASE("invalid system_profiler JSON is noted, not fatal") {
  Capture c;
  c.sections["system_profiler_SPThunderboltDataType"] = {"{oops", 0};
  auto h = build_host_info("h", c);
  CHECK_FALSE(h.has_thunderbolt);
  REQUIRE(h.notes.size() == 1);
  CHECK(h.notes[0] == "system_profiler printed invalid JSON");
}

TEST_CASE("en1's address comes from ifconfig when ipconfig was not asked") {
  Capture c;
  c.sections["ifconfig"] = {"en1: flags=8863<UP> mtu 1500\n\tinet 192.168.9.4 netmask 0xffffff00\n",
                            0};
  c.sections["ipconfig_getifaddr_en0"] = {"", 1};
  auto h = build_host_info("h", c);
  CHECK(h.en1_address == "192.168.9.4");
  CHECK(h.management_address() == "192.168.9.4");
}
