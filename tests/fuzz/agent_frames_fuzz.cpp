// Fuzzes the launcher <-> host side protocol's one decoder
// (agent_frames.hpp's FrameStream, which the launcher and the agent both
// use) on each of its three channels, and parse_header on
// every line. The first input byte picks where the stream is split in two:
// what the decoder makes of the stream must not depend on how it arrives,
// no frame may carry more bytes than the input had, and the frames it reads,
// encoded again (append_frame), must read back as the same frames. The
// pairs of P and F frames (decode_pairs) must read back to exactly what
// they were made of, and a rank's start request (decode_request) to the
// same strings.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "distkit/launch/agent_frames.hpp"
#include "fuzz_check.hpp"

using distkit::fuzz::require;
namespace af = distkit::agent_frames;

namespace {

using Seen = std::vector<std::tuple<char, long, std::string>>;

// The decoder on `channel`, fed `parts` in order: its frames (garbage as
// kind 0) and whether it ended broken.
std::pair<Seen, bool> reads(af::Channel channel, const std::vector<std::string_view>& parts) {
  af::FrameStream s(channel);
  Seen seen;
  for (auto part : parts) {
    s.feed(part);
    while (auto f = s.next()) seen.emplace_back(f->kind, f->number, f->data);
  }
  return {seen, s.broken()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = in.empty() ? 0 : data[0] % (in.size() + 1);
  const std::vector<std::string_view> whole = {in};
  const std::vector<std::string_view> split = {in.substr(0, cut), in.substr(cut)};

  Seen frames;
  for (auto channel : {af::Channel::to_agent, af::Channel::from_agent, af::Channel::to_rank}) {
    auto [read, broken] = reads(channel, whole);
    require(reads(channel, split) == std::make_pair(read, broken));
    // The frames read, encoded again, read back as the same frames.
    std::string again;
    Seen good;
    for (const auto& frame : read) {
      const auto& [kind, number, bytes] = frame;
      require(bytes.size() <= in.size());
      if (!kind) continue;  // garbage, the last frame read
      af::append_frame(again, channel, kind, number, bytes);
      good.push_back(frame);
    }
    require(reads(channel, {again}) == std::make_pair(good, false));
    if (channel == af::Channel::from_agent) frames = read;
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

  // Every line as a header of each channel: a header read back must name a
  // frame of that channel, and its word must lie inside the line.
  std::size_t pos = 0;
  while (pos <= in.size()) {
    std::size_t nl = in.find('\n', pos);
    std::string_view line = in.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    for (auto channel : {af::Channel::to_agent, af::Channel::from_agent, af::Channel::to_rank}) {
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
