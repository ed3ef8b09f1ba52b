// Fuzzes the three decoders of the launcher <-> host side protocol (all of
// them read agent_frames.hpp's table): the launcher's AgentFrameParser of
// the agent's output, the rank wrapper's FrameReader of the launcher's
// frames, and parse_header on every channel (the agent's reader of the
// launcher's frames is parse_header plus the wait for a frame's bytes).
// The first input byte picks where the stream is split in two: what a
// decoder makes of the stream must not depend on how it arrives, and no
// frame may carry more bytes than the input had. The pairs of P and F
// frames (decode_pairs) must read back to exactly what they were made of,
// and a rank's start request (decode_request) to the same strings.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "distkit/launch/agent_client.hpp"
#include "distkit/launch/agent_frames.hpp"
#include "frames.hpp"
#include "fuzz_check.hpp"

using distkit::fuzz::require;
namespace af = distkit::agent_frames;

namespace {

using Seen = std::vector<std::tuple<char, long, std::string>>;

// The launcher's parser, fed `parts` in order: its frames and whether it
// ended in an error.
std::pair<Seen, bool> launcher_reads(const std::vector<std::string_view>& parts) {
  distkit::launch::AgentFrameParser p;
  Seen seen;
  for (auto part : parts)
    p.feed(part, [&](const distkit::launch::AgentFrameParser::Frame& f) {
      seen.emplace_back(f.kind, f.id, f.data);
    });
  return {seen, !p.error().empty()};
}

Seen wrapper_reads(const std::vector<std::string_view>& parts) {
  distkit_agent::FrameReader r;
  Seen seen;
  for (auto part : parts) {
    r.feed(part.data(), part.size());
    while (auto f = r.next()) seen.emplace_back(f->kind, 0, f->payload);
  }
  return seen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = in.empty() ? 0 : data[0] % (in.size() + 1);
  const std::vector<std::string_view> whole = {in};
  const std::vector<std::string_view> split = {in.substr(0, cut), in.substr(cut)};

  auto [frames, failed] = launcher_reads(whole);
  require(launcher_reads(split) == std::make_pair(frames, failed));
  for (const auto& [kind, id, bytes] : frames) {
    require(af::find_spec(af::Channel::from_agent, kind) != nullptr);
    require(bytes.size() <= in.size());
  }

  // A list decode_pairs takes is one encode_pairs makes, byte for byte.
  if (auto pairs = af::decode_pairs(in)) require(af::encode_pairs(*pairs) == in);
  for (const auto& [kind, id, bytes] : frames)
    if (auto pairs = af::decode_pairs(bytes)) require(af::encode_pairs(*pairs) == bytes);

  // A start request reads back to what encodes to the same strings; one
  // that encode_request made reads back whole.
  auto request = af::decode_request(in);
  auto again = af::decode_request(af::encode_request(request));
  require(again.env == request.env && again.args == request.args);

  auto read = wrapper_reads(whole);
  require(wrapper_reads(split) == read);
  for (const auto& [kind, id, bytes] : read) require(bytes.size() <= in.size());

  // Every line as a header of each channel: a header read back must name a
  // frame of that channel, and its word must lie inside the line.
  std::size_t pos = 0;
  while (pos <= in.size()) {
    std::size_t nl = in.find('\n', pos);
    std::string_view line = in.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    for (auto channel : {af::Channel::to_agent, af::Channel::from_agent, af::Channel::to_wrapper}) {
      auto h = af::parse_header(channel, line);
      if (!h) continue;
      require(af::find_spec(channel, h->kind) != nullptr);
      require(h->word.empty() || (h->word.data() >= line.data() &&
                                  h->word.data() + h->word.size() <= line.data() + line.size()));
      require(line.size() <= af::max_header(channel));
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return 0;
}
