// Golden tests: every shared scenario case (tests/data/scenarios/*/
// expected_<case>.*, produced by MLX's reference tool) replayed through the
// whole tool with --from-probes: same exit status, byte-identical hostfile,
// identical DOT, and per-host setup commands that mean the same.
//
// The reference numbers its cables from 192.168.0.0/16; our default
// --subnet is 10.213.0.0/16 (192.168 collides with home LANs, SPEC §4), so
// the cases run with --subnet 192.168.0.0/16 --bridge-down to compare like
// with like: same addresses in the ring hostfile, same setup meaning.
#include <filesystem>
#include <fstream>

#include "catch.hpp"
#include "run_tool.hpp"
#include "test_data.hpp"

namespace fs = std::filesystem;
using namespace distkit::test;

namespace {

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The reference's setup line in our words: "sudo ifconfig IF inet IP
// netmask 255.255.255.252" gets "alias" (add the address without removing
// others); "sudo route change PEER -interface IF" is "sudo route -n add
// -host PEER -interface IF" (a host route).
std::string ours(const std::string& reference_line) {
  auto w = words(reference_line);
  if (w.size() == 7 && w[1] == "ifconfig" && w[3] == "inet" && w[6] == "255.255.255.252")
    return reference_line + " alias";
  if (w.size() == 6 && w[1] == "route" && w[2] == "change")
    return "sudo route -n add -host " + w[3] + " -interface " + w[5];
  return reference_line;  // titles, "sudo ifconfig bridge0 down", blank lines
}

// Every line of the reference's setup text, translated, is in our stderr.
void check_setup_meaning(const std::string& want, const std::string& err) {
  std::istringstream in(want);
  int lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    ++lines;
    INFO(line);
    CHECK(err.find(ours(line) + "\n") != std::string::npos);
  }
  CHECK(lines > 0);
}

struct Case {
  fs::path dir;
  std::string name;  // "auto", "dot", "ring", "jaccl"
};

std::vector<Case> all_cases() {
  std::vector<Case> out;
  for (const auto& d : fs::directory_iterator(data_dir() / "scenarios")) {
    for (const auto& f : fs::directory_iterator(d.path())) {
      std::string n = f.path().filename().string();
      if (n.rfind("expected_", 0) != 0 || n.find(".argv.txt") == std::string::npos) continue;
      std::string name = n.substr(9, n.size() - 9 - 9);
      if (name.rfind("launch", 0) == 0) continue;  // distlaunch's cases
      out.push_back({d.path(), name});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every scenario case matches the reference exit status, hostfile, DOT and setup") {
  auto cases = all_cases();
  REQUIRE(cases.size() == 13);
  for (const auto& c : cases) {
    INFO(c.dir.filename().string() + " " + c.name);
    fs::path out_file = fs::temp_directory_path() / ("distconfig-golden-" + c.name + ".json");
    fs::remove(out_file);
    auto args = words(slurp(c.dir / ("expected_" + c.name + ".argv.txt")));
    for (auto& a : args)
      if (a == "<out.json>") a = out_file.string();
    args.push_back("--from-probes");
    args.push_back(c.dir.string());
    if (c.name != "dot") {
      args.insert(args.end(), {"--subnet", "192.168.0.0/16", "--bridge-down"});
    }
    auto r = run_tool(args);
    std::string want_status = slurp(c.dir / ("expected_" + c.name + ".exit_status.txt"));
    CHECK(std::to_string(r.status) + "\n" == want_status);
    fs::path want_hf = c.dir / ("expected_" + c.name + ".hostfile.json");
    if (fs::exists(want_hf)) {
      CHECK(slurp(out_file) == slurp(want_hf));
    } else {
      CHECK_FALSE(fs::exists(out_file));  // never a half or wrong file
    }
    std::string want_out = slurp(c.dir / ("expected_" + c.name + ".stdout.txt"));
    if (c.name == "dot")
      CHECK(r.out == want_out);
    else if (!want_out.empty())
      check_setup_meaning(want_out, r.err);
    fs::remove(out_file);
  }
}

TEST_CASE("chain3 with --backend ring names the hosts short of cables and the partial rings") {
  // The reference prints "Could not find a full ring" and the rings; we also
  // say which hosts need a cable and which ports are free.
  auto dir = data_dir() / "scenarios" / "chain3_m3ultra_missing_cable";
  auto r = run_tool({"--hosts", "studio-a,studio-b,studio-c", "--backend", "ring", "--from-probes",
                     dir.string()});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  const std::string free =
      "Thunderbolt 1 (en2), Thunderbolt 3 (en4), Thunderbolt 4 (en5), "
      "Thunderbolt 5 (en6), Thunderbolt 6 (en7)";
  CHECK(
      r.err ==
      "distconfig: error: studio-a: cabled to 1 host(s), a ring needs 2; free ports on studio-a: " +
          free +
          "\n"
          "distconfig: error: studio-c: cabled to 1 host(s), a ring needs 2; free ports on "
          "studio-c: " +
          free +
          "\n"
          "distconfig: note: longest ring found: studio-a,studio-b\n"
          "distconfig: note: longest ring found: studio-b,studio-c\n"
          "distconfig: error: ring: no ring through all 3 hosts; add the cables listed above; "
          "run with --dot to see the cabling\n");
}
