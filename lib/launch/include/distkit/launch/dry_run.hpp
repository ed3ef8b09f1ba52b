// --dry-run: the plan as people read it (rank -> host, environment, the
// host agent's start request) or as JSON for scripts. The secret never
// appears. Written rank by rank to a sink, so memory stays linear in the
// number of ranks however large the (quadratic: every rank's files carry
// the ring list) output is.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "distkit/launch/plan.hpp"
#include "distkit/launch/rank_request.hpp"

namespace distkit::launch {

using TextSink = std::function<void(std::string_view)>;

// Schema of the JSON plan ("schema" field; see distlaunch(1) JSON OUTPUT).
inline constexpr const char* kPlanSchema = "distkit.launch-plan/2";

void write_plan_text(const Plan& plan, const RankSettings& settings, const TextSink& sink);
// {"schema","backend","job_id","command","cwd","hosts","ranks":[{"rank",
//  "host","local_rank","local_size","env":{...},"files":{"NAME":"content"},
//  "agent_args"}]}, formatted as nlohmann's dump(2).
void write_plan_json(const Plan& plan, const RankSettings& settings, const TextSink& sink);

}  // namespace distkit::launch
