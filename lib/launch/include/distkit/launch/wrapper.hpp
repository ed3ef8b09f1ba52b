// A rank's side on its host: the start request the launcher sends the host
// agent (distkit-agent, apps/agent; frames in agent_frames.hpp) for
// one rank, and the framed stdin protocol the launcher then speaks to that
// rank's wrapper (a child of the agent). The wrapper writes the rank's data
// files and secret into a private temp dir, starts the command in its own
// process group, reports the pid, forwards stdin, and kills the group when
// told to or when the launcher is gone (EOF without the end marker, missing
// heartbeats). Progress and stalls are the launcher's (stall_watch.hpp),
// from the agent's samples.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/plan.hpp"

namespace distkit::launch {

struct WrapperSettings {
  std::chrono::milliseconds grace{3000};    // TERM -> KILL
  std::chrono::seconds heartbeat_limit{5};  // silence before the rank is killed
  std::optional<std::string> cwd;           // directory to run in
  bool cwd_required = false;                // false: stay put when it is absent
  // false: the rank's stdin is /dev/null (no FIFO made; D frames ignored),
  // for ranks that get no stdin (--no-stdin, --stdin-rank, stdin /dev/null).
  bool stdin_forwarded = true;
};

// One rank's start request, as its parts: the environment (KEY=VALUE, the
// plan's variables; the data files' variables are set by the wrapper) and
// the wrapper's arguments (main.cpp: RANK ... NFILES [VAR NAME CONTENT]...
// COMMAND [ARG]...). Encoded (encode_request), it is what the host's
// AgentClient::start_rank takes.
agent_frames::StartRequest rank_request(const Plan& plan, const RankSpec& rank,
                                        const WrapperSettings& settings);

// The launcher's frames to a rank's wrapper (agent_frames.hpp,
// Channel::to_wrapper), sent inside the agent's I frames.
namespace frame {
inline std::string to_wrapper(char kind, std::string_view text = {}) {
  return agent_frames::encode_frame(agent_frames::Channel::to_wrapper, kind, -1, text);
}
inline std::string secret(std::string_view hex) {
  return to_wrapper('S', hex);
}
inline std::string heartbeat() {
  return to_wrapper('H');
}
inline std::string data(std::string_view bytes) {
  return to_wrapper('D', bytes);
}
inline std::string end_of_input() {
  return to_wrapper('E');
}
inline std::string signal(std::string_view name) {  // "INT"
  return to_wrapper('G', name);
}
inline std::string terminate() {
  return to_wrapper('T');
}
inline std::string kill() {
  return to_wrapper('K');
}
}  // namespace frame

// The line the wrapper prints on stderr once the rank runs.
inline constexpr std::string_view kPidMarker = "@@distlaunch:pid ";

}  // namespace distkit::launch
