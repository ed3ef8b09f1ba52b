// The launcher's frames to one rank's wrapper, as the wrapper reads them
// (the launcher writes them: distkit/launch/wrapper.hpp): one frame per
// line, "S <secret>", "H", "D <n>" followed by n raw bytes, "E",
// "G <SIGNAL>", "T", "K". Bytes arrive in any
// split; FrameReader keeps what it has not consumed yet.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace distkit_agent {

struct Frame {
  char kind = 0;        // 'S' 'H' 'D' 'E' 'G' 'T' 'K', or '?' for anything else
  std::string payload;  // S: the secret, D: the bytes, G: the signal name
  std::string line;     // the frame's line as received (for error messages)
};

class FrameReader {
 public:
  void feed(const char* data, std::size_t n) { buf_.append(data, n); }
  // The next complete frame, or nothing until more bytes arrive.
  std::optional<Frame> next();
  std::size_t buffered() const { return buf_.size() - pos_; }

 private:
  std::string buf_;
  std::size_t pos_ = 0;
};

}  // namespace distkit_agent
