// Reading the scripts' "NS" lines back, and the causes named for failed
// or misrouted links.
#include "distkit/netsetup/outcome.hpp"
#include "catch.hpp"

using namespace distkit;
using namespace distkit::netsetup;

namespace {
ssh::CommandResult result(std::string out, int status = 0, std::string err = {}) {
  ssh::CommandResult r;
  r.out = std::move(out);
  r.err = std::move(err);
  r.exit.exit_status = status;
  return r;
}
}  // namespace

TEST_CASE("setup output is read into changed, same and failed steps") {
  auto o =
      read_outcome("h1", result("NS changed link eth1 up\nNS same address 10.213.0.1/30 on eth1\n"
                                "noise\nNS failed route to 10.213.0.2 via eth1: RTNETLINK answers: "
                                "File exists\nNS end 1\n",
                                1));
  CHECK(o.count("changed") == 1);
  CHECK(o.count("same") == 1);
  CHECK(o.count("failed") == 1);
  CHECK(o.steps[2].what == "route to 10.213.0.2 via eth1: RTNETLINK answers: File exists");
  CHECK(o.error.empty());
  CHECK_FALSE(o.ok());
}

TEST_CASE("a script that never reached its end says why, sudo first") {
  auto o = read_outcome("h1", result("", 1, "sudo: a password is required\n"));
  CHECK(o.error ==
        "sudo needs a password; run the commands printed for this host by hand, or allow "
        "passwordless sudo");
  ssh::CommandResult lost;
  lost.exit.error = "connection lost";
  CHECK(read_outcome("h1", lost).error == "connection lost");
  CHECK(read_outcome("h1", result("NS changed x\n", 0)).error ==
        "the script stopped early (exit status 0)");
}

TEST_CASE("verify lines: per link the interface, peer, route and result") {
  auto v = read_verify(
      "h1", result("NS verify\teth1\t10.213.0.2\teth1\tup\tok\tfrom 10.213.0.1\n"
                   "NS verify\teth2\t10.213.0.6\teth0\tdown\tfail\tConnection timed out\n"
                   "NS nolisten\t10.213.0.5\tCannot assign requested address\nNS end 0\n"));
  REQUIRE(v.links.size() == 2);
  CHECK(v.links[0].ok);
  CHECK(v.links[0].route_iface == "eth1");
  CHECK(v.links[1].detail == "Connection timed out");
  CHECK(v.links[1].link == "down");
  CHECK(v.not_listening == std::vector<std::string>{"10.213.0.5: Cannot assign requested address"});
  CHECK(read_verify("h1", result("NS noperl\n", 1)).error ==
        "no perl on this host; the TCP check needs /usr/bin/perl (macOS and Debian ship it)");
}

TEST_CASE("the likely cause names what to do about a failed hop") {
  CHECK(likely_cause({"eth1", "10.213.0.2", "", "down", false, "No route to host"}, 32323) ==
        "eth1 is down here (cable unplugged, or the interface disabled): check the cable and the "
        "interface");
  CHECK(likely_cause({"eth9", "10.213.0.2", "", "missing", false, "No route to host"}, 32323) ==
        "this host has no interface eth9 (renamed, or the adapter is gone)");
  CHECK(
      likely_cause({"eth1", "10.213.0.2", "", "up", false, "No route to host"}, 32323) ==
      "no route to 10.213.0.2: the link's addresses are not set up (run distconfig --auto-setup)");
  CHECK(likely_cause({"eth1", "10.213.0.2", "eth0", "up", true, "from 10.77.1.2"}, 32323) ==
        "traffic to 10.213.0.2 leaves through eth0, not eth1: another interface (a LAN, a VPN, the "
        "Thunderbolt Bridge) holds a route to it");
  CHECK(likely_cause({"eth1", "10.213.0.2", "eth1", "up", false, "Connection refused"}, 32323) ==
        "the peer answers but nothing listens on port 32323 (its listener could not bind: port in "
        "use?)");
  CHECK(
      likely_cause({"eth1", "10.213.0.2", "eth1", "up", false, "Connection timed out"}, 32323) ==
      "no answer over eth1 (Connection timed out): cable unplugged or link down at either end, the "
      "peer's address not set up, or a firewall dropping port 32323");
  CHECK(likely_cause({"eth1", "10.213.0.2", "eth1", "up", true, "from 10.213.0.1"}, 32323).empty());
}
