// The frames of the launcher <-> host side protocol (agent_protocol.hpp),
// defined once: kFrames is the table, append_frame the one encoder and
// FrameStream the one decoder, for all three channels and both sides (the
// launcher, the agent, a rank's frames inside I). Header-only, the C++ standard
// library only, so the libc-only distkit-agent includes it too. The
// document is distkit-agent(1), PROTOCOL; a unit test checks it and the
// encoder against this table.
//
// A frame is one header line, "<kind>[ <field>]...\n", then, when one of
// its fields is a size, that many raw bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "distkit/util/decimal.hpp"

namespace distkit::agent_frames {

// Who sends the frame to whom.
enum class Channel {
  to_agent,    // distlaunch -> the host agent (its stdin)
  from_agent,  // the host agent -> distlaunch (its stdout)
  to_rank,     // distlaunch -> one rank (inside the agent's I frames)
};

// What a header field holds.
enum class Field {
  none,
  id,        // a rank's id on its agent: decimal
  size,      // the number of raw bytes after the header line: decimal
  protocol,  // agent_protocol.hpp's number: decimal
  version,   // a distkit version: [0-9A-Za-z.+_~-], up to 40 characters
  status,    // an exit status 0-255, or s<N> for signal N
  secret,    // the rest of the line, not empty
  signal,    // a signal name or number: the rest of the line, not empty
};

struct Spec {
  char kind;
  Channel channel;
  Field first = Field::none, second = Field::none;
};

inline constexpr Spec kFrames[] = {
    {'P', Channel::to_agent, Field::size},                        // timing and checks, first
    {'N', Channel::to_agent, Field::id, Field::size},             // start a rank
    {'I', Channel::to_agent, Field::id, Field::size},             // bytes of a rank's own frames
    {'C', Channel::to_agent, Field::id},                          // its frames end: stop it
    {'A', Channel::to_agent, Field::id},                          // the same, in an abort
    {'W', Channel::to_agent, Field::id},                          // its stacks; the job goes on
    {'L', Channel::to_agent, Field::id},                          // its stacks; the job then stops
    {'V', Channel::from_agent, Field::protocol, Field::version},  // the hello, first
    {'F', Channel::from_agent, Field::size},                      // the checks' facts, for P
    {'O', Channel::from_agent, Field::id, Field::size},           // a rank's stdout
    {'R', Channel::from_agent, Field::id, Field::size},           // a rank's stderr
    {'X', Channel::from_agent, Field::id, Field::status},         // a rank ended, its group gone
    {'M', Channel::from_agent, Field::id, Field::size},           // a rank's progress counters
    {'B', Channel::from_agent, Field::id, Field::size},           // a rank's stacks, for W or L
    {'S', Channel::to_rank, Field::secret},                       // the job secret, first
    {'H', Channel::to_rank},                                      // a heartbeat
    {'D', Channel::to_rank, Field::size},                         // bytes of the rank's stdin
    {'E', Channel::to_rank},                                      // end of the rank's stdin
    {'G', Channel::to_rank, Field::signal},                       // forward a signal
    {'T', Channel::to_rank},                                      // stop the rank (TERM, KILL)
    {'K', Channel::to_rank},                                      // SIGKILL now
};

// A header as read: its kind and the fields its spec gives it.
struct Header {
  char kind = 0;
  long number = -1;                 // Field::id or Field::protocol
  std::optional<std::size_t> size;  // Field::size: that many raw bytes follow
  std::string_view word;            // Field::version, status, secret or signal
};

// The longest header line a frame of `channel` can have; a reader that has
// more bytes than that without a newline is fed garbage. The agent's are
// short ("V" with a 12-digit protocol and a 40-character version: 55); the
// launcher's carry a 64-digit secret or a signal name.
inline constexpr std::size_t max_header(Channel channel) {
  return channel == Channel::from_agent ? 64 : 256;
}

namespace detail {

// `word` as the field `f` holds, into `h`; false when it is not one. Only
// the rest-of-line fields (secret, signal) may hold a space.
inline bool take(Field f, std::string_view word, Header& h) {
  switch (f) {
    case Field::id:
    case Field::protocol:
      h.number = parse_digits(word, 12).value_or(-1);
      return h.number >= 0;
    case Field::size:
      if (auto v = parse_digits(word, 9)) h.size = static_cast<std::size_t>(*v);  // under 1 GB
      return h.size.has_value();
    case Field::version:
      h.word = word;
      return !word.empty() && word.size() <= 40 &&
             word.find_first_not_of(
                 "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-+_~") ==
                 std::string_view::npos;
    case Field::status:
      h.word = word;
      if (word.size() > 1 && word[0] == 's') return parse_digits(word.substr(1), 3).has_value();
      return parse_digits(word, 3).value_or(256) <= 255;
    case Field::secret:
    case Field::signal:
      h.word = word;
      return !word.empty();
    case Field::none:
      break;
  }
  return false;
}

}  // namespace detail

// The spec of `kind` on `channel`, or nullptr.
inline const Spec* find_spec(Channel channel, char kind) {
  for (const auto& s : kFrames)
    if (s.kind == kind && s.channel == channel) return &s;
  return nullptr;
}

// `line` (a header without its '\n') as a frame of `channel`, or nothing
// when it is not one: an unknown kind, a field missing, extra or malformed.
inline std::optional<Header> parse_header(Channel channel, std::string_view line) {
  if (line.empty() || line.size() > max_header(channel)) return std::nullopt;
  const Spec* spec = find_spec(channel, line[0]);
  if (!spec) return std::nullopt;
  Header h;
  h.kind = spec->kind;
  if (spec->first == Field::none) return line.size() == 1 ? std::optional(h) : std::nullopt;
  if (line.size() < 3 || line[1] != ' ') return std::nullopt;
  // Two fields: split at the first space (neither first field holds one).
  std::string_view first = line.substr(2), second;
  if (spec->second != Field::none) {
    const std::size_t sp = first.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    second = first.substr(sp + 1);
    first = first.substr(0, sp);
  }
  if (!detail::take(spec->first, first, h)) return std::nullopt;
  if (spec->second != Field::none && !detail::take(spec->second, second, h)) return std::nullopt;
  return h;
}

// The one encoder: appends frame `kind` of `channel` to `out`. `number` is
// its id or protocol field; `text` its word field (version, status,
// secret, signal) or, for a sized frame, the bytes after its header. A
// kind the channel has not is a caller's bug (logic_error).
inline void append_frame(std::string& out, Channel channel, char kind, long number = -1,
                         std::string_view text = {}) {
  const Spec* spec = find_spec(channel, kind);
  if (!spec) throw std::logic_error(std::string("no frame '") + kind + "' on this channel");
  out += kind;
  bool sized = false;
  for (Field f : {spec->first, spec->second}) {
    if (f == Field::none) continue;
    out += ' ';
    if (f == Field::id || f == Field::protocol) {
      out += std::to_string(number);
    } else if (f == Field::size) {
      out += std::to_string(text.size());
      sized = true;
    } else {
      out.append(text);
    }
  }
  out += '\n';
  if (sized) out.append(text);
}

inline std::string encode_frame(Channel channel, char kind, long number = -1,
                                std::string_view text = {}) {
  std::string out;
  append_frame(out, channel, kind, number, text);
  return out;
}

// The one decoder: one channel's frames as they arrive, split anywhere.
// feed() the bytes, then take next() until it gives nothing. A line that
// is not a frame of the channel (or more bytes than its longest header
// without a newline) is garbage: next() gives it once, as a frame of kind
// 0 whose data is the line's start, and nothing after it, since nothing
// after it can be trusted. On the agent's channel an empty line between
// frames is padding (an agent under srun ends every write with a newline).
class FrameStream {
 public:
  struct Frame {
    char kind = 0;     // 0: garbage
    long number = -1;  // its id or protocol field
    std::string data;  // a sized frame's bytes, else its word field; garbage: the line
  };
  explicit FrameStream(Channel channel) : channel_(channel) {}
  void feed(std::string_view bytes) {
    if (!broken_) buf_.append(bytes);
  }
  std::optional<Frame> next() {
    if (broken_) return std::nullopt;
    if (channel_ == Channel::from_agent)
      while (pos_ < buf_.size() && buf_[pos_] == '\n') ++pos_;
    const std::size_t nl = buf_.find('\n', pos_);
    const std::string_view line(buf_.data() + pos_,
                                (nl == std::string::npos ? buf_.size() : nl) - pos_);
    if (nl == std::string::npos && line.size() <= max_header(channel_)) return compact();
    auto h = nl == std::string::npos ? std::nullopt : parse_header(channel_, line);
    Frame f;
    if (!h) {
      f.data = std::string(line.substr(0, 40));
      broken_ = true;
      buf_.clear(), pos_ = 0;
      return f;
    }
    const std::size_t after = nl + 1;
    if (h->size && buf_.size() - after < *h->size) return std::nullopt;  // its bytes are coming
    f.kind = h->kind;
    f.number = h->number;
    f.data = h->size ? buf_.substr(after, *h->size) : std::string(h->word);
    pos_ = after + h->size.value_or(0);
    compact();
    return f;
  }
  bool broken() const { return broken_; }
  std::size_t buffered() const { return buf_.size() - pos_; }

 private:
  // Drops what was read once it is most of the buffer: O(1) a byte.
  std::nullopt_t compact() {
    if (pos_ == buf_.size() || (pos_ > 65536 && pos_ * 2 > buf_.size()))
      buf_.erase(0, pos_), pos_ = 0;
    return std::nullopt;
  }
  Channel channel_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool broken_ = false;
};

// The payload of P, F and M frames: KEY=VALUE strings, each NUL-terminated
// (a value may hold any other byte). Keys are [a-z_], unique.
using Pairs = std::vector<std::pair<std::string, std::string>>;

inline std::string encode_pairs(const Pairs& pairs) {
  std::string out;
  for (const auto& [k, v] : pairs) out += k + '=' + v + '\0';
  return out;
}

// `payload` as pairs, or nothing when it is not a list encode_pairs makes.
inline std::optional<Pairs> decode_pairs(std::string_view payload) {
  Pairs out;
  while (!payload.empty()) {
    std::size_t end = payload.find('\0');
    std::size_t eq = payload.find('=');
    if (end == std::string_view::npos || eq == std::string_view::npos || eq > end || eq == 0)
      return std::nullopt;
    std::string key(payload.substr(0, eq));
    if (key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") != std::string::npos)
      return std::nullopt;
    for (const auto& kv : out)
      if (kv.first == key) return std::nullopt;
    out.emplace_back(std::move(key), std::string(payload.substr(eq + 1, end - eq - 1)));
    payload.remove_prefix(end + 1);
  }
  return out;
}

// The line the agent puts on a rank's stderr (its R frames) once the
// rank runs: this, then the rank's pid and a newline.
inline constexpr std::string_view kPidMarker = "@@distlaunch:pid ";

// The payload of an N frame, a rank's start request: its environment
// (KEY=VALUE), an empty string, then its arguments (rank.hpp), each
// NUL-terminated.
struct StartRequest {
  std::vector<std::string> env, args;
};

inline std::string encode_request(const StartRequest& r) {
  std::string out;
  for (const auto& e : r.env) out += e + '\0';
  out += '\0';
  for (const auto& a : r.args) out += a + '\0';
  return out;
}

// Lenient, as the agent has always read it: a missing last NUL ends the
// last string, and no separator means every string is the environment.
inline StartRequest decode_request(std::string_view payload) {
  StartRequest r;
  bool in_env = true;
  while (!payload.empty()) {
    std::size_t end = payload.find('\0');
    std::string s(payload.substr(0, end));
    payload.remove_prefix(end == std::string_view::npos ? payload.size() : end + 1);
    if (in_env && s.empty())
      in_env = false;
    else
      (in_env ? r.env : r.args).push_back(std::move(s));
  }
  return r;
}

// The value of `key` in `pairs` ("" when absent).
inline std::string pair_value(const Pairs& pairs, std::string_view key) {
  for (const auto& [k, v] : pairs)
    if (k == key) return v;
  return {};
}

}  // namespace distkit::agent_frames
