#include "frames.hpp"

#include "distkit/launch/agent_frames.hpp"

namespace distkit_agent {

std::optional<Frame> FrameReader::next() {
  namespace af = distkit::agent_frames;
  std::size_t nl = buf_.find('\n', pos_);
  if (nl == std::string::npos) {
    if (pos_ > 0 && pos_ == buf_.size()) buf_.clear(), pos_ = 0;
    return std::nullopt;
  }
  Frame f;
  f.line = buf_.substr(pos_, nl - pos_);
  std::size_t after = nl + 1;
  auto h = af::parse_header(af::Channel::to_wrapper, f.line);
  if (h && h->sized) {
    if (buf_.size() - after < h->size) return std::nullopt;  // wait for the bytes
    f.payload = buf_.substr(after, h->size);
    after += h->size;
  } else if (h) {
    f.payload = std::string(h->word);
  }
  f.kind = h ? h->kind : '?';
  pos_ = after;
  // Compact once the consumed prefix dominates: amortised O(1) per byte.
  if (pos_ > 65536 && pos_ * 2 > buf_.size()) buf_.erase(0, pos_), pos_ = 0;
  return f;
}

}  // namespace distkit_agent
