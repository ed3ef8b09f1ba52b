// A rank's start request for its host agent (rank_request.hpp). Keys are
// validated by the plan; values travel as NUL-terminated strings, never
// through a shell.
#include "distkit/launch/rank_request.hpp"

#include <algorithm>

namespace distkit::launch {

agent_frames::StartRequest rank_request(const Plan& plan, const RankSpec& rank,
                                        const RankSettings& settings) {
  agent_frames::StartRequest r;
  for (const auto& [k, v] : rank.env) r.env.push_back(k + "=" + v);
  r.args = {std::to_string(rank.rank),
            std::to_string(std::max<long long>(1, settings.grace.count() / 100)),
            settings.cwd.value_or(""),
            settings.cwd_required ? "1" : "0",
            settings.stdin_forwarded ? "1" : "0",
            std::to_string(rank.files.size())};
  for (const auto& file : rank.files)
    r.args.insert(r.args.end(), {file.env, file.name, file.text()});
  r.args.insert(r.args.end(), plan.command.begin(), plan.command.end());
  return r;
}

}  // namespace distkit::launch
