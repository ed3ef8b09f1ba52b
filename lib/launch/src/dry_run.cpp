// Rendering the plan for --dry-run. The environment shown is what the rank
// sees (files as $TMPDIR paths), the remote command the exact wrapper script.
#include "distkit/launch/dry_run.hpp"

#include <nlohmann/json.hpp>

#include "distkit/util/shell_quote.hpp"

namespace distkit::launch {

namespace {
const char* kDirShown = "$DISTLAUNCH_TMP";
}

std::string render_plan_text(const Plan& plan, const WrapperSettings& wrapper) {
  std::string out = "# distlaunch plan: backend " + std::string(hostfile::to_string(plan.backend)) +
                    ", " + std::to_string(plan.ranks.size()) + " rank(s) on " +
                    std::to_string(plan.hosts.size()) + " host(s), job " + plan.job_id + "\n";
  out += "# command: " + shell_join(plan.command) + "\n";
  for (const auto& r : plan.ranks) {
    out += "rank " + std::to_string(r.rank) + " -> " + r.host + " (local rank " +
           std::to_string(r.local_rank) + " of " + std::to_string(r.local_size) + ")\n";
    for (const auto& f : r.files)
      out += "  file " + std::string(kDirShown) + "/" + f.name + ": " + f.content + "\n";
    for (const auto& [k, v] : effective_env(r, kDirShown)) out += "  " + k + "=" + v + "\n";
    out += "  DISTKIT_SECRET_FILE=" + std::string(kDirShown) + "/secret\n";
  }
  if (!plan.ranks.empty()) {
    out += "# remote command of rank 0 (run as /bin/sh -c on its host):\n";
    out += render_rank_script(plan, plan.ranks.front(), wrapper);
  }
  return out;
}

std::string render_plan_json(const Plan& plan, const WrapperSettings& wrapper) {
  nlohmann::ordered_json j;
  j["backend"] = hostfile::to_string(plan.backend);
  j["job_id"] = plan.job_id;
  j["command"] = plan.command;
  j["cwd"] = plan.cwd ? nlohmann::ordered_json(*plan.cwd) : nlohmann::ordered_json(nullptr);
  j["hosts"] = plan.hosts;
  j["ranks"] = nlohmann::ordered_json::array();
  for (const auto& r : plan.ranks) {
    nlohmann::ordered_json jr;
    jr["rank"] = r.rank;
    jr["host"] = r.host;
    jr["local_rank"] = r.local_rank;
    jr["local_size"] = r.local_size;
    jr["env"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : effective_env(r, kDirShown)) jr["env"][k] = v;
    jr["files"] = nlohmann::ordered_json::object();
    for (const auto& f : r.files) jr["files"][f.name] = f.content;
    jr["remote_command"] = render_rank_script(plan, r, wrapper);
    j["ranks"].push_back(std::move(jr));
  }
  return j.dump(2) + "\n";
}

}  // namespace distkit::launch
