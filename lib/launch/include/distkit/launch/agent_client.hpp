// The launcher's side of the host agent (distkit-agent --host-agent; the
// frames are agent_frames.hpp's, documented in distkit-agent(1)): one
// channel per host carries all of that host's ranks. The supervisor starts
// a rank with its start request (rank_request.hpp, encoded), then
// feeds, aborts and waits for it through an AgentRankCommand as it would
// a command on a channel of its own.
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

#include "distkit/launch/agent_frames.hpp"
#include "distkit/ssh/executor.hpp"

namespace distkit::launch {

// A frame to the agent (agent_frames.hpp, Channel::to_agent): "K ID\n",
// or for the sized kinds (N, I) "K ID SIZE\n" and the bytes; P, whose only
// field is its size, "P SIZE\n" and the bytes (`id` unused).
inline std::string agent_frame(char kind, long id, std::string_view data = {}) {
  return agent_frames::encode_frame(agent_frames::Channel::to_agent, kind, id, data);
}

// The lines the locator (templates/launch_agent_start.sh) prints: the
// agent's path, just before it execs it on the channel, or, with none
// there, the host's system ("<uname -s> <uname -m>").
inline constexpr std::string_view kAgentMarker = "@@distlaunch:agent ";
inline constexpr std::string_view kNoAgentMarker = "@@distlaunch:no-agent ";

// The timing pairs of a P frame (agent_protocol.hpp) for a job whose
// heartbeat limit is `heartbeat_limit` seconds.
agent_frames::Pairs agent_timing(long heartbeat_limit, long first_rank_wait);

// What a host's channel answered up to the agent's facts
// (AgentClient::start_with_preflight).
struct AgentOpening {
  std::string agent;      // the distkit-agent the locator found ("" none)
  std::string system;     // none found: the host's "<sysname> <machine>"
  long protocol = -1;     // the agent's hello: its protocol (-1: no hello)
  std::string version;    //   and its distkit version
  bool answered = false;  // its F frame came: `facts` holds the checks
  agent_frames::Pairs facts;
  // Where the channel ended before F: how (error set: it failed, a cut
  // link or a timeout), and the first line it wrote on stderr.
  ssh::ExitInfo exit;
  std::string err;
};

// The ExitInfo an X frame's status stands for ("3" exited 3, "s9" signal 9).
ssh::ExitInfo agent_exit_info(std::string_view status);

// What the agent reports of a rank besides its output and end (protocol 4).
// Called on the host's I/O thread, like ssh::StreamHandlers, and not after
// on_exit.
struct RankReports {
  std::function<void(const agent_frames::Pairs&)> on_progress;  // M: its counters
  std::function<void(std::string_view)> on_stacks;              // B: for request_stacks
};

class AgentClient;

// One rank on a host agent: its frames go through the agent's channel.
class AgentRankCommand : public ssh::RunningCommand {
 public:
  AgentRankCommand(std::shared_ptr<AgentClient> owner, long id)
      : owner_(std::move(owner)), id_(id) {}
  void write_stdin(std::string_view data) override;
  void close_stdin() override;
  void abort() override;
  void wait() override;
  // Asks the agent for the rank's stacks (W; L when `final`: the job is
  // stopped next); they come to RankReports::on_stacks.
  void request_stacks(bool final);

 private:
  std::shared_ptr<AgentClient> owner_;
  long id_;
};

class AgentClient : public std::enable_shared_from_this<AgentClient> {
 public:
  // `inner`: the host's executor; `err`: where the agent's own messages go
  // (prefixed with the host).
  explicit AgentClient(std::shared_ptr<ssh::Executor> inner, std::FILE* err = stderr);
  ~AgentClient();

  const std::string& host() const { return inner_->host(); }
  // The host's own executor, for commands that are not ranks (a health check).
  ssh::Executor& host_executor() { return *inner_; }
  // `request`: an encoded StartRequest (agent_frames.hpp), once the agent runs
  // (start_with_preflight); `reports`: what the agent reports of the rank besides its output.
  std::unique_ptr<AgentRankCommand> start_rank(const std::string& request,
                                               ssh::StreamHandlers handlers,
                                               RankReports reports = {});

  // Runs `locator` (templates/launch_agent_start.sh) as the agent's
  // channel; once the agent has said hello in this protocol, sends it
  // `request` (P's pairs: the timing and the checks) and gives the opening
  // when its facts (F) come: the agent then carries the ranks. An agent of
  // another protocol is closed at once; a channel that ends first gives
  // what it said. Either way there is then no agent (running() false), and
  // this may be called again (after the launcher has copied its own agent
  // there). Call before start().
  std::future<AgentOpening> start_with_preflight(const std::string& locator,
                                                 const agent_frames::Pairs& request);
  // The end of the job here: EOF to the agent, which then ends (every rank
  // has ended: the supervisor waited for them); end_input() on every host
  // first, then wait_ended() on each, so the hosts end together. The
  // destructor does both.
  void end_input();
  void wait_ended();
  // The agent runs (its channel has not ended).
  bool running();
  // Closes the agent's channel (a preflight that took too long).
  void abort_agent();

  struct Slot;  // one rank (agent_client.cpp)

 private:
  friend class AgentRankCommand;
  void on_agent_stdout(std::string_view bytes);
  void on_locator_line(std::string_view line);
  void on_opening_frame(const agent_frames::FrameStream::Frame& f);
  void on_rank_frame(const agent_frames::FrameStream::Frame& f);
  void give_opening();
  void on_agent_stderr(std::string_view bytes);
  void on_agent_exit(const ssh::ExitInfo& e);
  void end_slot(long id, const ssh::ExitInfo& e);
  void send(const std::string& frame);
  ssh::RunningCommand* agent_now();
  void abort_channel();
  void adopt(std::unique_ptr<ssh::RunningCommand> agent);
  void abort_rank(long id);

  std::shared_ptr<ssh::Executor> inner_;
  std::FILE* err_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::unique_ptr<ssh::RunningCommand> agent_;
  bool agent_ended_ = false;
  std::string ended_why_;  // why it ended, as its ranks and a later start_rank are told
  long next_id_ = 0;
  std::map<long, std::shared_ptr<Slot>> slots_;
  // The channel's phases under start_with_preflight: the locator's lines
  // until its marker, then frames: the agent's hello (V), which P answers,
  // then its facts (F), which give the opening. The I/O thread only (set
  // before the channel exists).
  enum class Phase { locate, hello, facts, frames };
  Phase phase_ = Phase::frames;
  bool aborted_ = false;  // abort_agent() was called
  // The channel's thread asked to abort it before start() had stored it.
  bool abort_pending_ = false;
  // Frames sent before start() had stored the channel (adopt() sends them).
  std::vector<std::string> unsent_;
  std::mutex send_mu_;  // send() and adopt(): frames leave in the order sent
  AgentOpening opening_;
  std::string locator_out_;  // the locator's output, to its marker
  agent_frames::Pairs request_;
  std::promise<AgentOpening> opening_done_;
  bool opening_given_ = false;
  // The agent's frames, and what was wrong with them: the agent channel's
  // I/O thread only.
  agent_frames::FrameStream parser_{agent_frames::Channel::from_agent};
  std::string parse_error_;
  std::string err_line_;  // the agent's own stderr, to the next newline
};

}  // namespace distkit::launch
