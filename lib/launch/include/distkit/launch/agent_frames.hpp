// The frames of the launcher <-> host side protocol (agent_protocol.hpp),
// defined once: kFrames is the table, parse_header the one reader of a
// frame's header line, used by all three decoders (the agent's reader of
// the launcher's frames, the launcher's reader of the agent's, the rank
// wrapper's reader of the launcher's). Header-only, the C++ standard
// library only, so the libc-only distkit-agent includes it too. The
// document is distkit-agent(1), PROTOCOL; a unit test checks it and the
// encoders against this table.
//
// A frame is one header line, "<kind>[ <field>]...\n", then, when one of
// its fields is a size, that many raw bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace distkit::agent_frames {

// Who sends the frame to whom.
enum class Channel {
  to_agent,    // distlaunch -> the host agent (its stdin)
  from_agent,  // the host agent -> distlaunch (its stdout)
  to_wrapper,  // distlaunch -> one rank's wrapper (inside the agent's I frames)
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
    {'N', Channel::to_agent, Field::id, Field::size},             // start a rank
    {'I', Channel::to_agent, Field::id, Field::size},             // bytes for a rank's wrapper
    {'C', Channel::to_agent, Field::id},                          // close its stdin after the queue
    {'A', Channel::to_agent, Field::id},                          // close it now
    {'V', Channel::from_agent, Field::protocol, Field::version},  // the hello, first
    {'O', Channel::from_agent, Field::id, Field::size},           // a rank's stdout
    {'R', Channel::from_agent, Field::id, Field::size},           // a rank's stderr
    {'X', Channel::from_agent, Field::id, Field::status},         // a rank's wrapper ended
    {'S', Channel::to_wrapper, Field::secret},                    // the job secret, first
    {'H', Channel::to_wrapper},                                   // a heartbeat
    {'D', Channel::to_wrapper, Field::size},                      // bytes of the rank's stdin
    {'E', Channel::to_wrapper},                                   // end of the rank's stdin
    {'G', Channel::to_wrapper, Field::signal},                    // forward a signal
    {'T', Channel::to_wrapper},                                   // stop the rank (TERM, KILL)
    {'K', Channel::to_wrapper},                                   // SIGKILL now
};

// A header as read: its kind and the fields its spec gives it.
struct Header {
  char kind = 0;
  long number = -1;       // Field::id or Field::protocol
  std::size_t size = 0;   // Field::size
  bool sized = false;     // a Field::size is present: `size` raw bytes follow
  std::string_view word;  // Field::version, status, secret or signal
};

// The longest header line a frame of `channel` can have; a reader that has
// more bytes than that without a newline is fed garbage. The agent's are
// short ("V" with a 12-digit protocol and a 40-character version: 55); the
// launcher's carry a 64-digit secret or a signal name.
inline constexpr std::size_t max_header(Channel channel) {
  return channel == Channel::from_agent ? 64 : 256;
}

// `s` as a decimal of at most `max_digits` digits (no sign, no space).
inline bool parse_decimal(std::string_view s, std::size_t max_digits, long& out) {
  if (s.empty() || s.size() > max_digits) return false;
  long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

namespace detail {

inline bool version_chars(std::string_view s) {
  if (s.empty() || s.size() > 40) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
          c == '-' || c == '+' || c == '_' || c == '~'))
      return false;
  return true;
}

// One field from `rest` (up to the next space, or all of it for the
// rest-of-line fields); false when it is not what `f` holds.
inline bool take(Field f, std::string_view& rest, bool last, Header& h) {
  std::string_view word = rest;
  if (f != Field::secret && f != Field::signal) {
    std::size_t sp = rest.find(' ');
    if (last && sp != std::string_view::npos) return false;   // a field too many
    if (!last && sp == std::string_view::npos) return false;  // one too few
    word = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
  } else {
    if (!last) return false;  // rest-of-line fields come last
    rest = std::string_view();
  }
  long v = 0;
  switch (f) {
    case Field::id:
    case Field::protocol:
      if (!parse_decimal(word, 12, v)) return false;
      h.number = v;
      return true;
    case Field::size:
      if (!parse_decimal(word, 9, v)) return false;  // under 1 GB
      h.size = static_cast<std::size_t>(v);
      h.sized = true;
      return true;
    case Field::version:
      h.word = word;
      return version_chars(word);
    case Field::status:
      h.word = word;
      if (word.size() > 1 && word[0] == 's') return parse_decimal(word.substr(1), 3, v);
      return parse_decimal(word, 3, v) && v <= 255;
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
  if (spec->first == Field::none) {
    if (line.size() != 1) return std::nullopt;
    return h;
  }
  if (line.size() < 3 || line[1] != ' ') return std::nullopt;
  std::string_view rest = line.substr(2);
  bool two = spec->second != Field::none;
  if (!detail::take(spec->first, rest, !two, h)) return std::nullopt;
  if (two && !detail::take(spec->second, rest, true, h)) return std::nullopt;
  return h;
}

}  // namespace distkit::agent_frames
