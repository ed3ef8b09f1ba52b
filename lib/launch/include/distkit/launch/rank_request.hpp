// A rank's side on its host, as the launcher asks for it: the start request
// it sends the host agent (distkit-agent, apps/agent/rank.hpp; frames in
// agent_frames.hpp) for one rank, and the rank's own frames it then sends
// inside the agent's I frames. The agent writes the rank's data files and
// secret into a private temp dir, starts the command in its own process
// group, reports the pid, forwards stdin, and stops the group when told to
// or when the launcher is gone (the frames end without the end marker,
// missing heartbeats). Progress and stalls are the launcher's
// (stall_watch.hpp), from the agent's samples.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/plan.hpp"

namespace distkit::launch {

struct RankSettings {
  std::chrono::milliseconds grace{3000};  // TERM -> KILL
  std::optional<std::string> cwd;         // directory to run in
  bool cwd_required = false;              // false: stay put when it is absent
  // false: the rank's stdin is /dev/null (no pipe made; D frames ignored),
  // for ranks that get no stdin (--no-stdin, --stdin-rank, stdin /dev/null).
  bool stdin_forwarded = true;
};

// One rank's start request, as its parts: the environment (KEY=VALUE, the
// plan's variables; the data files' variables are set by the agent) and
// its arguments (apps/agent/rank.hpp: RANK ... NFILES [VAR NAME CONTENT]...
// COMMAND [ARG]...). Encoded (encode_request), it is what the host's
// AgentClient::start_rank takes.
agent_frames::StartRequest rank_request(const Plan& plan, const RankSpec& rank,
                                        const RankSettings& settings);

// The launcher's frames to a rank (agent_frames.hpp,
// Channel::to_rank), sent inside the agent's I frames.
namespace frame {
inline std::string to_rank(char kind, std::string_view text = {}) {
  return agent_frames::encode_frame(agent_frames::Channel::to_rank, kind, -1, text);
}
inline std::string secret(std::string_view hex) {
  return to_rank('S', hex);
}
inline std::string heartbeat() {
  return to_rank('H');
}
inline std::string data(std::string_view bytes) {
  return to_rank('D', bytes);
}
inline std::string end_of_input() {
  return to_rank('E');
}
inline std::string signal(std::string_view name) {  // "INT"
  return to_rank('G', name);
}
inline std::string terminate() {
  return to_rank('T');
}
inline std::string kill() {
  return to_rank('K');
}
}  // namespace frame

}  // namespace distkit::launch
