// Golden tests: for every reference launch in the shared scenarios, the plan
// gives each rank the same MLX variables and data-file contents as the
// reference per-rank script (tests/data/launch/<scenario>/...remote_script.txt).
#include <map>
#include <regex>
#include <sstream>

#include "catch.hpp"
#include "distkit/hostfile/hostfile.hpp"
#include "distkit/launch/plan.hpp"
#include "test_data.hpp"

using namespace distkit;
using namespace distkit::launch;

namespace {

struct Reference {
  std::map<std::string, std::string> env;    // plain exports
  std::map<std::string, std::string> files;  // env -> file content
  std::vector<std::string> command;
  std::string cwd;
};

// Reads "export K=V" (V not a file) and "echo '<json>' >$fname; export K=$fname".
Reference parse_reference(const std::string& script) {
  Reference ref;
  std::regex file_re(R"(echo '([^']*)' >\$fname; export ([A-Z_]+)=\$fname)");
  for (std::sregex_iterator it(script.begin(), script.end(), file_re), end; it != end; ++it)
    ref.files[(*it)[2]] = (*it)[1];
  std::regex export_re(R"(export ([A-Z_]+)=([^;$]+);)");
  for (std::sregex_iterator it(script.begin(), script.end(), export_re), end; it != end; ++it)
    ref.env[(*it)[1]] = (*it)[2];
  std::smatch m;
  if (std::regex_search(script, m, std::regex(R"(cmd=\(([^)]*)\))"))) {
    std::istringstream words(m[1].str());
    for (std::string w; words >> w;) ref.command.push_back(w);
  }
  if (std::regex_search(script, m, std::regex(R"(cd ([^;]+);)"))) ref.cwd = m[1];
  return ref;
}

// "--hostfile <x.json> --cwd D [--connections-per-ip N] -- cmd..."
LaunchOptions parse_argv(const std::string& argv, std::string& hostfile_name) {
  std::istringstream in(argv);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  LaunchOptions o;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "--") {
      o.command.assign(w.begin() + static_cast<long>(i) + 1, w.end());
      break;
    }
    if (w[i] == "--hostfile") {
      const std::string& v = w[++i];
      hostfile_name = v.substr(1, v.size() - 2);  // "<name>"
    } else if (w[i] == "--cwd")
      o.cwd = w[++i];
    else if (w[i] == "--connections-per-ip")
      o.connections_per_ip = std::stoi(w[++i]);
    else
      FAIL("unexpected reference flag " << w[i]);
  }
  return o;
}

void check_scenario(const std::string& dir, const std::string& launch,
                    const std::vector<std::string>& hosts) {
  std::string hf_name;
  std::string argv = test::read_data("launch/" + dir + "/expected_" + launch + ".argv.txt");
  LaunchOptions o = parse_argv(argv, hf_name);
  auto hf = hostfile::parse(test::read_data("launch/" + dir + "/" + hf_name), hf_name);
  Plan plan = build_plan(hf, o, nullptr, "job");
  REQUIRE(plan.ranks.size() == hosts.size());
  for (size_t r = 0; r < hosts.size(); ++r) {
    INFO(dir << " " << launch << " rank " << r);
    Reference ref =
        parse_reference(test::read_data("launch/" + dir + "/expected_" + launch + ".rank" +
                                        std::to_string(r) + "." + hosts[r] + ".remote_script.txt"));
    const RankSpec& rank = plan.ranks[r];
    CHECK(rank.host == hosts[r]);
    std::map<std::string, std::string> mlx_env, files;
    for (const auto& [k, v] : rank.env)
      if (k.rfind("MLX_", 0) == 0) mlx_env[k] = v;
    for (const auto& f : rank.files) files[f.env] = f.text();
    CHECK(mlx_env == ref.env);
    CHECK(files == ref.files);
    CHECK(plan.command == ref.command);
    CHECK(plan.cwd.value_or("") == ref.cwd);
  }
}

}  // namespace

TEST_CASE("ring ranks get the reference address list and rank", "[launch][golden]") {
  check_scenario("ring4_m3ultra_rdma", "launch_ring",
                 {"studio-a", "studio-b", "studio-c", "studio-d"});
}

TEST_CASE("ring with two connections per ip repeats each address with its own port",
          "[launch][golden]") {
  check_scenario("pair2_m3ultra_double_cable", "launch_ring_2conn", {"studio-a", "studio-b"});
}

TEST_CASE("jaccl ranks get the reference coordinator and device matrix", "[launch][golden]") {
  check_scenario("mesh4_m3ultra_rdma", "launch_jaccl",
                 {"studio-a", "studio-b", "studio-c", "studio-d"});
}

TEST_CASE("jaccl-ring ranks also get MLX_JACCL_RING=1", "[launch][golden]") {
  check_scenario("ring4_m3ultra_rdma", "launch_jaccl_ring",
                 {"studio-a", "studio-b", "studio-c", "studio-d"});
}
