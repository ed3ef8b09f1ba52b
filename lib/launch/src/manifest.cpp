// Rendering and writing the run manifest (see manifest.hpp).
#include "distkit/launch/manifest.hpp"

#include <nlohmann/json.hpp>

#include "distkit/util/atomic_file.hpp"
#include "distkit/util/error.hpp"
#include "distkit/util/sha256.hpp"
#include "distkit/util/utc_time.hpp"
#include "distkit/version.hpp"

namespace distkit::launch {

namespace {

using nlohmann::ordered_json;

std::string iso_time(Clock::time_point t) {
  return utc_time(Clock::to_time_t(t));
}

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

ordered_json rank_json(const RankSpec& spec, const RankResult& r) {
  ordered_json j;
  j["rank"] = r.rank;
  j["host"] = r.host;
  j["pid"] = r.pid;
  if (!r.exit.error.empty())
    j["error"] = r.exit.error;
  else if (r.exit.signal)
    j["signal"] = r.exit.signal;
  else
    j["exit_status"] = r.exit.exit_status;
  j["stopped_by_distlaunch"] = r.stopped;
  j["start"] = iso_time(r.start);
  j["duration_s"] = seconds_between(r.start, r.end);
  j["env"] = ordered_json::object();
  for (const auto& [k, v] : effective_env(spec, kRankDirShown)) j["env"][k] = v;
  return j;
}

ordered_json stacks_json(const std::vector<StackDump>& stacks) {
  ordered_json out = ordered_json::array();
  for (const auto& d : stacks)
    out.push_back({{"rank", d.rank},
                   {"host", d.host},
                   {"why", d.why},
                   {"at", iso_time(d.at)},
                   {"text", d.text}});
  return out;
}

}  // namespace

std::string render_manifest(const ManifestInputs& in) {
  ordered_json j;
  j["schema"] = kManifestSchema;
  j["tool"] = std::string("distlaunch ") + kVersion;
  j["job_id"] = in.plan.job_id;
  j["command"] = in.plan.command;
  j["cwd"] = in.plan.cwd ? ordered_json(*in.plan.cwd) : ordered_json(nullptr);
  j["backend"] = hostfile::to_string(in.plan.backend);
  if (in.options.launcher) j["launcher"] = *in.options.launcher;
  // Inside a Slurm allocation: the job, and under srun each host agent's
  // step (as the agent found it in its environment).
  if (in.options.slurm_job_id) {
    j["slurm"]["job_id"] = *in.options.slurm_job_id;
    j["slurm"]["steps"] = ordered_json::object();
    for (const auto& [host, f] : in.facts.hosts)
      if (!f.slurm_step.empty()) j["slurm"]["steps"][host] = f.slurm_step;
  }
  if (in.options.hostfile) {
    j["hostfile"]["path"] = in.options.hostfile->string();
    if (in.hostfile_text) {
      j["hostfile"]["sha256"] = sha256_hex(*in.hostfile_text);
      j["hostfile"]["content"] = *in.hostfile_text;
    }
  }
  j["exit_code"] = in.result.exit_code;
  j["reason"] = in.result.reason;
  j["start"] = iso_time(in.result.start);
  j["end"] = iso_time(in.result.end);
  j["duration_s"] = seconds_between(in.result.start, in.result.end);
  j["hosts"] = ordered_json::object();
  for (const auto& [host, f] : in.facts.hosts) {
    ordered_json h;
    h["os"] = f.os;
    if (!f.python.empty()) h["python"] = f.python;
    if (!f.mlx.empty()) h["mlx"] = f.mlx;
    if (!f.git.empty()) h["git_commit_of_cwd"] = f.git;
    if (!f.agent.empty()) h["agent"] = f.agent;
    if (!f.agent_hello.empty()) h["agent_hello"] = f.agent_hello;
    if (f.agent_copied) h["agent_copied"] = true;
    if (!f.slurm_step.empty()) h["slurm_step"] = f.slurm_step;
    j["hosts"][host] = h;
  }
  j["ranks"] = ordered_json::array();
  for (size_t i = 0; i < in.result.ranks.size() && i < in.plan.ranks.size(); ++i)
    j["ranks"].push_back(rank_json(in.plan.ranks[i], in.result.ranks[i]));
  // Stacks taken on a stall, --timeout or SIGQUIT, as they were printed.
  j["stacks"] = stacks_json(in.result.stacks);
  // The attempts --restart started over, each with why and its stacks.
  j["restarts"] = ordered_json::array();
  for (const auto& a : in.result.earlier)
    j["restarts"].push_back({{"exit_code", a.exit_code},
                             {"reason", a.reason},
                             {"start", iso_time(a.start)},
                             {"end", iso_time(a.end)},
                             {"stacks", stacks_json(a.stacks)}});
  return j.dump(2) + "\n";
}

std::filesystem::path write_manifest(const std::filesystem::path& dir, const ManifestInputs& in) {
  make_directory(dir, "record directory", "choose a writable --record directory");
  auto path = dir / "manifest.json";
  write_file_atomic(path, render_manifest(in));
  return path;
}

}  // namespace distkit::launch
