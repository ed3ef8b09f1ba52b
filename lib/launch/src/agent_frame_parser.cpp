// AgentFrameParser (agent_client.hpp): the launcher's reader of the host
// agent's output, on its own so the fuzz target (tests/fuzz/launch.cmake)
// builds it alone. Headers are read by agent_frames.hpp, the one table.
#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_frames.hpp"

namespace distkit::launch {

bool AgentFrameParser::feed(std::string_view bytes,
                            const std::function<void(const Frame&)>& on_frame) {
  namespace af = agent_frames;
  if (!error_.empty()) return false;
  buf_.append(bytes);
  std::size_t pos = 0;
  while (true) {
    std::size_t nl = buf_.find('\n', pos);
    if (nl == std::string::npos) {
      if (buf_.size() - pos > af::max_header(af::Channel::from_agent))
        error_ = "no frame header in the agent's output";
      break;
    }
    if (nl == pos) {  // padding between frames (an agent under srun)
      ++pos;
      continue;
    }
    std::string_view line(buf_.data() + pos, nl - pos);
    auto h = af::parse_header(af::Channel::from_agent, line);
    if (!h) {
      error_ = "unexpected frame '" + std::string(line.substr(0, 40)) + "' from the agent";
      break;
    }
    std::size_t after = nl + 1;
    if (h->sized && buf_.size() - after < h->size) break;  // wait for the bytes
    Frame f;
    f.kind = h->kind;
    f.id = h->number;
    f.data = h->sized ? buf_.substr(after, h->size) : std::string(h->word);
    pos = after + (h->sized ? h->size : 0);
    on_frame(f);
    if (!error_.empty()) break;  // the frame was out of place
  }
  buf_.erase(0, pos);
  return error_.empty();
}

}  // namespace distkit::launch
