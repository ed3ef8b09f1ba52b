// networksetup -listallhardwareports on every real capture.
#include "distkit/probe/hardware_ports.hpp"

#include "catch.hpp"
#include "test_data.hpp"

using namespace distkit::probe;
using distkit::test::read_data;

namespace {
std::vector<HardwarePort> load(const std::string& f) {
  return parse_hardware_ports(read_data("probe/" + f));
}
std::string tb(const std::vector<HardwarePort>& p, const char* n) {
  return thunderbolt_interface(p, n).value_or("<none>");
}
}  // namespace

TEST_CASE("M5 Max: Thunderbolt ports map to en1, en6, en2 (not computable)") {
  auto p = load("networksetup_m5max_mbp_B_anonymized_macs.txt");
  CHECK(p.size() == 6);
  CHECK(tb(p, "1") == "en1");
  CHECK(tb(p, "2") == "en6");
  CHECK(tb(p, "3") == "en2");
  CHECK(p[1].name == "Thunderbolt Bridge");
  CHECK(p[1].device == "bridge0");
}

TEST_CASE("M4 mini listing with a gap has no Thunderbolt 3") {
  auto p = load("networksetup_m4_macmini_kite2_tb_gap_skulk.txt");
  CHECK(tb(p, "1") == "en2");
  CHECK(tb(p, "2") == "en3");
  CHECK(tb(p, "3") == "<none>");
  CHECK(tb(p, "4") == "en4");
}

TEST_CASE("trimmed listings without Ethernet Address lines still map ports") {
  auto s = load("networksetup_m3ultra_studio_6tb_no_bridge_trimmed.txt");
  CHECK(tb(s, "1") == "en2");
  CHECK(tb(s, "6") == "en7");
  auto m = load("networksetup_m4max_mbp_3tb_no_bridge_trimmed.txt");
  CHECK(tb(m, "3") == "en3");
  for (auto& port : m) CHECK(port.device != "bridge0");
}

TEST_CASE("garbage gives no ports and an empty receptacle never matches") {
  CHECK(parse_hardware_ports("Device: en0\n\x01\x02").empty());
  auto p = parse_hardware_ports("Hardware Port: Thunderbolt \nDevice: en9\n");
  CHECK(tb(p, "") == "<none>");
}
