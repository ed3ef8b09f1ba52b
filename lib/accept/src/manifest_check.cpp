// What a run manifest must hold for a result to be deliverable (contract in
// levels.hpp): the fields are distlaunch's manifest.json keys.
#include <nlohmann/json.hpp>

#include "distkit/accept/levels.hpp"

namespace distkit::accept {

namespace {
using json = nlohmann::json;

bool non_empty_string(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() &&
         !j[key].get<std::string>().empty();
}
}  // namespace

std::vector<std::string> missing_manifest_fields(const std::string& manifest_json,
                                                 const std::vector<std::string>& hosts) {
  json m = json::parse(manifest_json, nullptr, false);
  if (m.is_discarded() || !m.is_object()) return {"manifest.json is not a JSON object"};
  std::vector<std::string> missing;
  if (!m.contains("command") || !m["command"].is_array() || m["command"].empty())
    missing.push_back("command missing");
  // The hosts came from a hostfile (its hash), or from a Slurm allocation
  // (its job, and each rank's node in `ranks`).
  bool slurm = m.contains("slurm") && non_empty_string(m["slurm"], "job_id");
  if (!slurm && (!m.contains("hostfile") || !non_empty_string(m["hostfile"], "sha256")))
    missing.push_back("hostfile.sha256 missing (the job was not started from a hostfile)");
  const json* hosts_obj = m.contains("hosts") && m["hosts"].is_object() ? &m["hosts"] : nullptr;
  for (const auto& h : hosts) {
    if (!hosts_obj || !hosts_obj->contains(h)) {
      missing.push_back("hosts." + h + " missing (no facts recorded for that host)");
      continue;
    }
    const json& facts = (*hosts_obj)[h];
    if (!non_empty_string(facts, "os")) missing.push_back("hosts." + h + ".os missing");
    if (!non_empty_string(facts, "git_commit_of_cwd"))
      missing.push_back("hosts." + h +
                        ".git_commit_of_cwd missing (the working directory is not a git "
                        "repository there)");
  }
  if (!m.contains("ranks") || !m["ranks"].is_array() || m["ranks"].empty()) {
    missing.push_back("ranks missing");
  } else {
    for (size_t i = 0; i < m["ranks"].size(); ++i) {
      const json& r = m["ranks"][i];
      if (!r.is_object() || !r.contains("env") || !r["env"].is_object() || r["env"].empty())
        missing.push_back("ranks[" + std::to_string(i) + "].env missing");
    }
  }
  for (const char* key : {"start", "end"})
    if (!non_empty_string(m, key)) missing.push_back(std::string(key) + " missing");
  return missing;
}

}  // namespace distkit::accept
