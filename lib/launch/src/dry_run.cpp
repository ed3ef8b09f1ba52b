// Rendering the plan for --dry-run. The environment shown is what the rank
// sees (files as $TMPDIR paths), the agent's arguments those of the rank's
// start request (rank_request.hpp), exactly as its host agent gets them.
// One rank at a time goes to the sink: nothing holds the whole output.
#include "distkit/launch/dry_run.hpp"

#include <nlohmann/json.hpp>

#include "distkit/util/shell_quote.hpp"

namespace distkit::launch {

namespace {

using nlohmann::ordered_json;

ordered_json rank_json(const Plan& plan, const RankSpec& r, const RankSettings& settings) {
  ordered_json jr;
  jr["rank"] = r.rank;
  jr["host"] = r.host;
  jr["local_rank"] = r.local_rank;
  jr["local_size"] = r.local_size;
  jr["env"] = ordered_json::object();
  for (const auto& [k, v] : effective_env(r, kRankDirShown)) jr["env"][k] = v;
  jr["files"] = ordered_json::object();
  for (const auto& f : r.files) jr["files"][f.name] = f.text();
  jr["agent_args"] = rank_request(plan, r, settings).args;
  return jr;
}

// `text` with `prefix` before every line (JSON strings hold no raw newline).
std::string indented(const std::string& text, const std::string& prefix) {
  std::string out = prefix;
  for (char c : text) {
    out += c;
    if (c == '\n') out += prefix;
  }
  return out;
}

}  // namespace

void write_plan_text(const Plan& plan, const RankSettings& settings, const TextSink& sink) {
  sink("# distlaunch plan: backend " + std::string(hostfile::to_string(plan.backend)) + ", " +
       std::to_string(plan.ranks.size()) + " rank(s) on " + std::to_string(plan.hosts.size()) +
       " host(s), job " + plan.job_id + "\n");
  sink("# command: " + shell_join(plan.command) + "\n");
  for (const auto& r : plan.ranks) {
    std::string out = "rank " + std::to_string(r.rank) + " -> " + r.host + " (local rank " +
                      std::to_string(r.local_rank) + " of " + std::to_string(r.local_size) + ")\n";
    for (const auto& f : r.files)
      out += "  file " + std::string(kRankDirShown) + "/" + f.name + ": " + f.text() + "\n";
    for (const auto& [k, v] : effective_env(r, kRankDirShown)) out += "  " + k + "=" + v + "\n";
    out += "  DISTKIT_SECRET_FILE=" + std::string(kRankDirShown) + "/secret\n";
    out += "  DISTKIT_HEARTBEAT_FILE=" + std::string(kRankDirShown) + "/heartbeat\n";
    sink(out);
  }
  if (!plan.ranks.empty()) {
    sink("# rank 0's start request to its host agent (distkit-agent), as words:\n");
    sink(shell_join(rank_request(plan, plan.ranks.front(), settings).args) + "\n");
  }
}

void write_plan_json(const Plan& plan, const RankSettings& settings, const TextSink& sink) {
  ordered_json j;
  j["schema"] = kPlanSchema;
  j["backend"] = hostfile::to_string(plan.backend);
  j["job_id"] = plan.job_id;
  j["command"] = plan.command;
  j["cwd"] = plan.cwd ? ordered_json(*plan.cwd) : ordered_json(nullptr);
  j["hosts"] = plan.hosts;
  j["ranks"] = ordered_json::array();
  std::string head = j.dump(2);  // ends in "\"ranks\": []\n}"
  head.resize(head.size() - 3);  // keep "\"ranks\": ["
  sink(head);
  for (size_t i = 0; i < plan.ranks.size(); ++i)
    sink((i ? ",\n" : "\n") + indented(rank_json(plan, plan.ranks[i], settings).dump(2), "    "));
  sink(plan.ranks.empty() ? "]\n}\n" : "\n  ]\n}\n");
}

}  // namespace distkit::launch
