// --dry-run: the plan as people read it (rank -> host, environment, the
// exact remote command) or as JSON for scripts. The secret never appears.
#pragma once

#include <string>

#include "distkit/launch/plan.hpp"
#include "distkit/launch/wrapper.hpp"

namespace distkit::launch {

std::string render_plan_text(const Plan& plan, const WrapperSettings& wrapper);
// {"backend","job_id","command","cwd","hosts","ranks":[{"rank","host",
//  "local_rank","env":{...},"files":{"NAME":"content"},"remote_command"}]}
std::string render_plan_json(const Plan& plan, const WrapperSettings& wrapper);

}  // namespace distkit::launch
