// AgentClient (contract in agent_client.hpp). The agent's channel
// callbacks run on the host's I/O thread; they find a rank's slot under the
// mutex and call its handlers without it, as an executor of its own would.
#include "distkit/launch/agent_client.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "distkit/launch/agent_frames.hpp"
#include "distkit/launch/agent_protocol.hpp"

namespace distkit::launch {

struct AgentClient::Slot {
  ssh::StreamHandlers handlers;
  RankReports reports;
  bool ended = false;    // on_exit is being or has been called
  bool aborted = false;  // abort() was called
};

agent_frames::Pairs agent_timing(long heartbeat_limit, long first_rank_wait) {
  heartbeat_limit = std::max(1L, heartbeat_limit);  // as the host side has always had it
  return {{"heartbeat_limit", std::to_string(heartbeat_limit)},
          {"idle_limit", std::to_string(heartbeat_limit + kAgentIdleMargin)},
          {"first_rank_wait", std::to_string(first_rank_wait)}};
}

ssh::ExitInfo agent_exit_info(std::string_view status) {
  ssh::ExitInfo e;
  const bool signalled = !status.empty() && status[0] == 's';
  if (auto v = parse_digits(status.substr(signalled ? 1 : 0), 12))
    (signalled ? e.signal : e.exit_status) = static_cast<int>(*v);
  else
    e.error = "malformed status '" + std::string(status) + "' from the host agent";
  return e;
}

void AgentRankCommand::write_stdin(std::string_view data) {
  if (!data.empty()) owner_->send(agent_frame('I', id_, data));
}
void AgentRankCommand::close_stdin() {
  owner_->send(agent_frame('C', id_));
}
void AgentRankCommand::abort() {
  owner_->abort_rank(id_);
}
void AgentRankCommand::request_stacks(bool final) {
  owner_->send(agent_frame(final ? 'L' : 'W', id_));
}
// Until on_exit has returned: the slot is then erased (end_slot).
void AgentRankCommand::wait() {
  std::unique_lock lock(owner_->mu_);
  owner_->cv_.wait(lock, [&] { return owner_->slots_.count(id_) == 0; });
}

AgentClient::AgentClient(std::shared_ptr<ssh::Executor> inner, std::FILE* err)
    : inner_(std::move(inner)), err_(err) {}

AgentClient::~AgentClient() {
  end_input();
  wait_ended();
}

void AgentClient::end_input() {
  if (auto* channel = agent_now()) channel->close_stdin();
}

void AgentClient::wait_ended() {
  if (auto* channel = agent_now()) channel->wait();
}

// The stored channel (null before adopt()); read under mu_, used outside it,
// as the channel's callbacks take mu_.
ssh::RunningCommand* AgentClient::agent_now() {
  std::lock_guard lock(mu_);
  return agent_.get();
}

std::future<AgentOpening> AgentClient::start_with_preflight(const std::string& locator,
                                                            const agent_frames::Pairs& request) {
  std::unique_ptr<ssh::RunningCommand> ended;
  {
    std::lock_guard lock(mu_);
    if (agent_ && !agent_ended_)
      throw std::logic_error("start_with_preflight: the host agent on " + host() + " runs");
    ended = std::move(agent_);  // an earlier preflight's channel, over
    unsent_.clear();
    agent_ended_ = aborted_ = abort_pending_ = false;
    ended_why_.clear();
  }
  if (ended) ended->wait();
  // A fresh opening, for a channel not started yet (no callback can run).
  opening_ = {};
  opening_given_ = false;
  opening_done_ = std::promise<AgentOpening>();
  locator_out_.clear();
  request_ = request;
  parser_ = agent_frames::FrameStream(agent_frames::Channel::from_agent);
  parse_error_.clear();
  err_line_.clear();
  auto result = opening_done_.get_future();
  phase_ = Phase::locate;  // before the channel exists: no callback yet
  adopt(inner_->start(locator, {.on_stdout = [this](std::string_view b) { on_agent_stdout(b); },
                                .on_stderr = [this](std::string_view b) { on_agent_stderr(b); },
                                .on_exit = [this](const ssh::ExitInfo& e) { on_agent_exit(e); }}));
  return result;
}

// Stores the started channel. Its thread may have run already: the frames
// it sent meanwhile (P, answering a hello that came first) go out now, in
// order, and garbage it found meanwhile aborts the channel now.
void AgentClient::adopt(std::unique_ptr<ssh::RunningCommand> agent) {
  std::lock_guard order(send_mu_);
  ssh::RunningCommand* channel = agent.get();
  bool abort_now = false;
  std::vector<std::string> unsent;
  {
    std::lock_guard lock(mu_);
    agent_ = std::move(agent);
    abort_now = abort_pending_;
    unsent.swap(unsent_);
  }
  for (const auto& f : unsent) channel->write_stdin(f);
  if (abort_now) channel->abort();
}

void AgentClient::abort_channel() {
  ssh::RunningCommand* agent = nullptr;
  {
    std::lock_guard lock(mu_);
    agent = agent_.get();
    if (!agent) abort_pending_ = true;
  }
  if (agent) agent->abort();
}

bool AgentClient::running() {
  std::lock_guard lock(mu_);
  return agent_ && !agent_ended_ && !aborted_;
}

void AgentClient::abort_agent() {
  {
    std::lock_guard lock(mu_);
    aborted_ = true;
  }
  abort_channel();
}

std::unique_ptr<AgentRankCommand> AgentClient::start_rank(const std::string& request,
                                                          ssh::StreamHandlers handlers,
                                                          RankReports reports) {
  std::unique_lock lock(mu_);
  if (!agent_ && !agent_ended_)
    throw std::logic_error("the host agent on " + host() + " was never started");
  if (agent_ended_)  // why, as its running ranks were told (on_agent_exit)
    throw std::runtime_error("the host agent on " + host() + " has ended (" + ended_why_ + ")");
  long id = next_id_++;
  slots_[id] = std::make_shared<Slot>(Slot{std::move(handlers), std::move(reports)});
  lock.unlock();
  send(agent_frame('N', id, request));
  return std::make_unique<AgentRankCommand>(shared_from_this(), id);
}

// A frame to the agent: one write_stdin call a frame, so frames never
// interleave. Before the channel is stored (the hello can be answered
// before start() has returned, seen with a local agent under load) it
// waits in unsent_ for adopt(); send_mu_ keeps frames in the order sent.
void AgentClient::send(const std::string& f) {
  std::lock_guard order(send_mu_);
  ssh::RunningCommand* channel = nullptr;
  {
    std::lock_guard lock(mu_);
    channel = agent_.get();
    if (!channel) {
      unsent_.push_back(f);
      return;
    }
  }
  channel->write_stdin(f);
}

void AgentClient::abort_rank(long id) {
  bool all_aborted = true;
  {
    std::lock_guard lock(mu_);
    auto it = slots_.find(id);
    if (it == slots_.end()) return;
    it->second->aborted = true;
    for (auto& [i, s] : slots_) all_aborted = all_aborted && (s->aborted || s->ended);
  }
  send(agent_frame('A', id));
  // Every rank given up on: close the channel too, as a rank's own channel
  // would be (the agent then sees EOF; a dead link ends it via keepalives).
  if (all_aborted) abort_channel();
}

void AgentClient::on_agent_stderr(std::string_view bytes) {
  if (phase_ != Phase::frames) {
    // Why a locator or an agent ended early: its first line is enough.
    if (opening_.err.size() < 4096) opening_.err.append(bytes);
    return;
  }
  // The agent's own complaints (the ranks' stderr comes framed on stdout).
  err_line_.append(bytes);
  for (std::size_t nl; (nl = err_line_.find('\n')) != std::string::npos;) {
    std::fprintf(err_, "distlaunch: %s: %s\n", host().c_str(), err_line_.substr(0, nl).c_str());
    err_line_.erase(0, nl + 1);
  }
}

void AgentClient::on_agent_stdout(std::string_view bytes) {
  std::string rest;
  if (phase_ == Phase::locate) {
    // The locator's lines until its marker; what follows is the agent's.
    // A login shell's chatter before it is passed over, within bounds.
    locator_out_.append(bytes);
    std::size_t pos = 0;
    for (std::size_t nl;
         phase_ == Phase::locate && (nl = locator_out_.find('\n', pos)) != std::string::npos;
         pos = nl + 1)
      on_locator_line(std::string_view(locator_out_).substr(pos, nl - pos));
    locator_out_.erase(0, pos);
    if (phase_ == Phase::locate) {
      if (locator_out_.size() > 65536) abort_channel();  // no locator speaks like that
      return;
    }
    rest.swap(locator_out_);
    bytes = rest;
  }
  parser_.feed(bytes);
  while (parse_error_.empty()) {
    auto f = parser_.next();
    if (!f) break;
    if (!f->kind)
      parse_error_ = "unexpected frame '" + f->data + "' from the agent";
    else if (phase_ != Phase::frames)
      on_opening_frame(*f);
    else
      on_rank_frame(*f);
  }
  // Nothing after a bad frame can be trusted: close the channel; its on_exit
  // then fails every rank still on it (or gives the opening).
  if (!parse_error_.empty()) abort_channel();
}

// A rank's output, reports or end.
void AgentClient::on_rank_frame(const agent_frames::FrameStream::Frame& f) {
  if (f.kind != 'O' && f.kind != 'R' && f.kind != 'X' && f.kind != 'M' && f.kind != 'B') {
    parse_error_ = std::string("a second '") + f.kind + "' frame from the agent";
    return;
  }
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mu_);
    auto it = slots_.find(f.number);
    if (it != slots_.end() && !it->second->ended) slot = it->second;
  }
  if (!slot) return;
  if (f.kind == 'O') {
    if (slot->handlers.on_stdout) slot->handlers.on_stdout(f.data);
  } else if (f.kind == 'R') {
    if (slot->handlers.on_stderr) slot->handlers.on_stderr(f.data);
  } else if (f.kind == 'M') {
    auto pairs = agent_frames::decode_pairs(f.data);
    if (!pairs) parse_error_ = "malformed 'M' frame from the agent";
    if (pairs && slot->reports.on_progress) slot->reports.on_progress(*pairs);
  } else if (f.kind == 'B') {
    if (slot->reports.on_stacks) slot->reports.on_stacks(f.data);
  } else {
    end_slot(f.number, agent_exit_info(f.data));
  }
}

void AgentClient::on_locator_line(std::string_view line) {
  if (line.rfind(kAgentMarker, 0) == 0) {
    opening_.agent = std::string(line.substr(kAgentMarker.size()));
    phase_ = Phase::hello;
  } else if (line.rfind(kNoAgentMarker, 0) == 0) {
    opening_.system = std::string(line.substr(kNoAgentMarker.size()));
  }
}

// The hello, which P answers, then the facts, which give the opening.
void AgentClient::on_opening_frame(const agent_frames::FrameStream::Frame& f) {
  if (phase_ == Phase::hello && f.kind == 'V') {
    opening_.protocol = f.number;
    opening_.version = f.data;
    if (f.number != kAgentProtocol) {  // another protocol: nothing it sends can be trusted
      {
        std::lock_guard lock(mu_);
        aborted_ = true;
      }
      give_opening();
      abort_channel();
      return;
    }
    phase_ = Phase::facts;
    send(agent_frame('P', 0, agent_frames::encode_pairs(request_)));  // the opening's request
    return;
  }
  auto facts = f.kind == 'F' ? agent_frames::decode_pairs(f.data) : std::nullopt;
  if (phase_ != Phase::facts || !facts) {
    parse_error_ = std::string("unexpected '") + f.kind + "' frame from the agent before " +
                   (phase_ == Phase::hello ? "its hello" : "its facts");
    return;
  }
  opening_.facts = std::move(*facts);
  opening_.answered = true;
  phase_ = Phase::frames;
  give_opening();
}

void AgentClient::give_opening() {
  if (opening_given_) return;
  opening_given_ = true;
  opening_.err = opening_.err.substr(0, opening_.err.find('\n'));  // its first line
  opening_done_.set_value(opening_);
}

void AgentClient::on_agent_exit(const ssh::ExitInfo& e) {
  // Why it ended, as its ranks and any later start() are told: its cause
  // (a protocol error, the link's failure) or, without one, its status.
  std::string why = !parse_error_.empty() ? "host agent protocol error: " + parse_error_ +
                                                "; use the same distkit version on every host"
                                          : e.error;
  const bool has_cause = !why.empty();
  if (!has_cause)
    why = "its host agent ended (status " + std::to_string(e.shell_status()) +
          ") before the rank did";
  const bool opening = phase_ != Phase::frames;
  if (opening) {
    // No agent: the locator found none (its output says what the host
    // runs), the agent refused this protocol or ended before its facts,
    // or the link failed (error set).
    opening_.exit = e;
    if (!parse_error_.empty() && e.error.empty())
      opening_.exit.error = "host agent protocol error: " + parse_error_;
    phase_ = Phase::frames;
  }
  std::vector<long> live;
  {
    std::lock_guard lock(mu_);
    agent_ended_ = true;
    // With agent_ended_, not after it: a start() meanwhile must be told
    // this. Before the opening, with no rank on it, only a cause: a later
    // start() then gives the bare status. Ranks started before the opening
    // (a caller's bug) are lost below.
    ended_why_ = has_cause || !opening || !slots_.empty()
                     ? why
                     : "status " + std::to_string(e.shell_status());
    for (auto& [id, s] : slots_)
      if (!s->ended) live.push_back(id);
  }
  if (opening) give_opening();
  if (!err_line_.empty())
    std::fprintf(err_, "distlaunch: %s: %s\n", host().c_str(), err_line_.c_str());
  for (long id : live) end_slot(id, {.error = why});
}

void AgentClient::end_slot(long id, const ssh::ExitInfo& e) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard lock(mu_);
    auto it = slots_.find(id);
    if (it == slots_.end() || it->second->ended) return;
    slot = it->second;
    slot->ended = true;
  }
  if (slot->handlers.on_exit) slot->handlers.on_exit(e);
  {
    std::lock_guard lock(mu_);
    slots_.erase(id);  // on_exit has returned: wait() is over
  }
  cv_.notify_all();
}

}  // namespace distkit::launch
