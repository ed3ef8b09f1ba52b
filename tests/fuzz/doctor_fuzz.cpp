// Fuzzes distconfig --doctor's readers of what templates/doctor_host.sh
// printed on a host (lib/configtool/src/doctor_checks.cpp: routes, links,
// connect results, speeds, daemons, the network location, RDMA ports) and
// the verdicts drawn from them, for two hops (one over a cable, one not).
// The input is the capture's sections, each started by a line
// "@@ <name> <exit status>" (the capture format itself is fuzz.capture's).
// Checked besides "no crash, no sanitizer report": nothing throws, every
// verdict is ok, warn or fail, and every finding's text is one line (the
// report prints one finding a line).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "distkit/probe/hardware_ports.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/strings.hpp"
#include "doctor_checks.hpp"
#include "fuzz_check.hpp"

namespace dc = distkit::configtool;
using distkit::fuzz::require;

namespace {

distkit::probe::Capture sections_of(std::string_view in) {
  distkit::probe::Capture c;
  distkit::probe::Section* cur = nullptr;
  for (auto line : distkit::split_lines(in)) {
    if (line.starts_with("@@ ")) {
      auto words = distkit::split_words(line.substr(3));
      if (words.size() == 2) {
        cur = &c.sections[words[0]];
        cur->status = distkit::parse_decimal<int>(words[1]).value_or(-1);
        continue;
      }
    }
    if (cur) cur->output.append(line).push_back('\n');
  }
  return c;
}

void require_one_line(const std::string& s) {
  require(s.find('\n') == std::string::npos);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto c = sections_of(in);
  std::vector<distkit::probe::HardwarePort> ports;
  if (const auto* p = c.ok("ports")) ports = distkit::probe::parse_hardware_ports(p->output);
  const std::vector<dc::Hop> hops = {{"h1", "en3", "h2", "10.213.0.2", "link", true},
                                     {"h1", "", "h3", "192.168.1.3", "coordinator", false}};
  auto r = dc::read_host_result("h1", c, hops, ports);
  require(r.hops.size() == (r.error.empty() ? hops.size() : 0));
  std::vector<dc::Finding> all = dc::judge_hops(hops, r, {"en2", "en3"}, 32322);
  for (auto&& more : {dc::judge_host(r), dc::judge_rdma(r, {"en3"})})
    all.insert(all.end(), more.begin(), more.end());
  for (const auto& f : all) {
    require(f.verdict == "ok" || f.verdict == "warn" || f.verdict == "fail");
    for (const auto* text : {&f.subject, &f.evidence, &f.cause, &f.fix}) require_one_line(*text);
  }
  return 0;
}
