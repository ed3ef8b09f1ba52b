// The launcher's side of the host agent (distkit-agent --host-agent; the
// frames are agent_frames.hpp's, documented in distkit-agent(1)): one
// channel per host carries all of that host's ranks. AgentClient is
// an Executor, so the supervisor starts, feeds, aborts and waits for a rank
// as it would on a channel of its own; each rank's "command" is its start
// request (rank_start_request, wrapper.hpp).
#pragma once

#include <condition_variable>
#include <cstdio>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

// A frame to the agent (agent_frames.hpp, Channel::to_agent): "K ID\n", or
// for the sized kinds (N, I) "K ID SIZE\n" and the bytes.
std::string agent_frame(char kind, long id, std::string_view data = {});

// A start request: the rank's environment (KEY=VALUE) and its wrapper's
// arguments from RANK on, NUL-terminated, the two lists split by an empty one.
std::string agent_request(const std::vector<std::string>& env,
                          const std::vector<std::string>& args);

// The agent's stdout as frames. Bytes arrive in any split; a frame the
// agent cannot have sent is a protocol error (error() says which).
class AgentFrameParser {
 public:
  struct Frame {
    char kind = 0;     // 'O' stdout, 'R' stderr, 'X' the wrapper ended, 'V' hello
    long id = -1;      // the rank; V: the agent's protocol
    std::string data;  // O/R: the bytes; X: the status ("3", "s9"); V: the version
  };
  // Calls `on_frame` for each complete frame; false (and stops) on garbage.
  bool feed(std::string_view bytes, const std::function<void(const Frame&)>& on_frame);
  const std::string& error() const { return error_; }

 private:
  std::string buf_;
  std::string error_;
};

// The line the preflight prints before it execs the agent on its channel
// (templates/launch_preflight.sh).
inline constexpr std::string_view kAgentMarker = "@@distlaunch:agent";
// The fact line start_with_preflight adds to the preflight's output for the
// agent's hello: "agent_hello=<protocol> <distkit version>"; absent when the
// agent ended before its hello (a distkit-agent from before the agent).
inline constexpr std::string_view kHelloFact = "agent_hello";

// The ExitInfo an X frame's status stands for ("3" exited 3, "s9" signal 9).
ssh::ExitInfo agent_exit_info(std::string_view status);

class AgentClient : public ssh::Executor, public std::enable_shared_from_this<AgentClient> {
 public:
  // `inner`: the host's executor; `agent_command`: the shell command that
  // runs the agent there.
  // `err`: where the agent's own messages go (prefixed with the host).
  AgentClient(std::shared_ptr<ssh::Executor> inner, std::string agent_command,
              std::FILE* err = stderr);
  ~AgentClient() override;

  const std::string& host() const override { return inner_->host(); }
  bool is_local() const override { return inner_->is_local(); }
  ssh::CommandResult run(const std::string& command, const ssh::RunOptions& options) override {
    return inner_->run(command, options);
  }
  // `request`: an agent_request. Without start_with_preflight, the agent
  // (agent_command) starts with the first rank.
  std::unique_ptr<ssh::RunningCommand> start(const std::string& request,
                                             ssh::StreamHandlers handlers) override;

  // Runs `script` (the preflight) as the agent's channel: its output up to
  // the kAgentMarker line, plus the kHelloFact line, is the result, given
  // once the agent (which the script execs) has said hello; an agent of
  // this protocol then carries the ranks, one of another is closed at once.
  // A script that ends without the marker gives its exit as the result; one
  // whose agent ends before its hello (a distkit-agent from before the
  // agent) gives the checks' result. Either way there is then no agent
  // (running() false), and this may be called again (after the launcher
  // has copied its own agent there). Call before any start().
  std::future<ssh::CommandResult> start_with_preflight(const std::string& script);
  // The agent runs (its channel has not ended).
  bool running();
  // Closes the agent's channel (a preflight that took too long).
  void abort_agent();

  struct Slot;  // one rank (agent_client.cpp)

 private:
  friend class AgentRankCommand;
  ssh::StreamHandlers agent_handlers();
  void on_agent_stdout(std::string_view bytes);
  void on_agent_stderr(std::string_view bytes);
  void on_agent_exit(const ssh::ExitInfo& e);
  void end_slot(long id, const ssh::ExitInfo& e);
  void send(const std::string& frame);
  ssh::RunningCommand* agent_now();
  void abort_channel();
  void adopt(std::unique_ptr<ssh::RunningCommand> agent);
  void abort_rank(long id);

  std::shared_ptr<ssh::Executor> inner_;
  std::string agent_command_;
  std::FILE* err_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::unique_ptr<ssh::RunningCommand> agent_;
  bool agent_ended_ = false;
  ssh::ExitInfo agent_exit_;
  std::string ended_why_;  // why its ranks were lost, once it ended with ranks on it
  long next_id_ = 0;
  std::map<long, std::shared_ptr<Slot>> slots_;
  // The channel's phases under start_with_preflight: the preflight's lines
  // until the marker, then frames, of which the first must be the agent's
  // hello (V) before the result is given. Without it, frames from the start.
  // The I/O thread only (set before the channel exists).
  enum class Phase { facts, hello, frames };
  Phase phase_ = Phase::frames;
  bool aborted_ = false;  // abort_agent() was called
  // The channel's thread asked to abort it before start() had stored it.
  bool abort_pending_ = false;
  ssh::CommandResult preflight_;
  std::promise<ssh::CommandResult> preflight_done_;
  AgentFrameParser parser_;  // the agent channel's I/O thread only
  std::string err_line_;     // the agent's own stderr, to the next newline
};

}  // namespace distkit::launch
