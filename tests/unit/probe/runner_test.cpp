// The real probe script run on this machine through a LocalExecutor: one
// round trip, a capture with every Linux section, the loopback route.
#include "distkit/probe/runner.hpp"

#include "catch.hpp"
#include "distkit/probe/host_info.hpp"
#include "distkit/ssh/local_executor.hpp"

using namespace distkit::probe;

TEST_CASE("probing this machine gives a Linux capture with the loopback route") {
  std::vector<std::shared_ptr<distkit::ssh::Executor>> ex{
      std::make_shared<distkit::ssh::LocalExecutor>("127.0.0.1"), nullptr};
  auto res = run_probes(ex, {"127.0.0.1", "gone"}, std::chrono::seconds(30));
  REQUIRE(res.size() == 2);
  CHECK(res[1].error == "not connected");
  REQUIRE(res[0].error.empty());
  REQUIRE(res[0].capture);
  const Capture& c = *res[0].capture;
  for (const char* s :
       {"uname", "hostname", "os_release", "ip_addr", "route_to_launcher", "sudo", "ibv_devices"})
    CHECK(c.find(s) != nullptr);
  CHECK(c.find("ibv_devices")->status == 127);  // not installed here
  auto h = build_host_info("127.0.0.1", c);
  CHECK(h.uname.kernel == "Linux");
  CHECK_FALSE(h.macos);
  CHECK(h.management_address() == "127.0.0.1");
}

TEST_CASE("the probe command passes the boundary and launcher as quoted words") {
  CHECK(probe_command("DISTKIT-ab", "") == "sh -s -- DISTKIT-ab ''");
  CHECK(probe_command("DISTKIT-ab", "10.0.0.1") == "sh -s -- DISTKIT-ab 10.0.0.1");
  CHECK(probe_script().find("sec sw_vers need sw_vers") != std::string::npos);  // the macOS probe
}

namespace {
// A local command runner that claims to be remote (as an SSH host would).
class RemoteLike : public distkit::ssh::Executor {
 public:
  const std::string& host() const override { return local_.host(); }
  bool is_local() const override { return false; }
  distkit::ssh::CommandResult run(const std::string& c,
                                  const distkit::ssh::RunOptions& o) override {
    return local_.run(c, o);
  }
  std::unique_ptr<distkit::ssh::RunningCommand> start(const std::string& c,
                                                      distkit::ssh::StreamHandlers h) override {
    return local_.start(c, std::move(h));
  }

 private:
  distkit::ssh::LocalExecutor local_{"remote"};
};
}  // namespace

TEST_CASE("this machine among remote hosts gets no loopback address") {
  // 127.0.0.1 would be unreachable for the other hosts: better no address
  // (and a warning) than a wrong one.
  std::vector<std::shared_ptr<distkit::ssh::Executor>> ex{
      std::make_shared<distkit::ssh::LocalExecutor>("localhost"), std::make_shared<RemoteLike>()};
  auto res = run_probes(ex, {"localhost", "remote"}, std::chrono::seconds(30));
  REQUIRE(res[0].capture);
  CHECK(res[0].capture->find("route_to_launcher")->status == 2);
  CHECK(build_host_info("localhost", *res[0].capture).management_address().empty());
}
