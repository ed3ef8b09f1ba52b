// See json_text.hpp. The escaping rules are CPython's Lib/json/encoder.py
// (py_encode_basestring_ascii): ESCAPE_ASCII = ([\\"]|[^\ -~]).
#include "distkit/util/json_text.hpp"

#include <cstdint>
#include <cstdio>
#include <utility>

namespace distkit {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one UTF-8 sequence at s[i]; advances i. Invalid input yields
// U+FFFD and consumes one byte.
char32_t next_code_point(std::string_view s, size_t& i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) {
    ++i;
    return c;
  }
  size_t len = (c >= 0xC2 && c <= 0xDF)   ? 2
               : (c >= 0xE0 && c <= 0xEF) ? 3
               : (c >= 0xF0 && c <= 0xF4) ? 4
                                          : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return kReplacement;
  }
  char32_t cp = c & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += len;
  return cp;
}

void append_u_escape(std::string& out, unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", v & 0xFFFFu);
  out += buf;
}

void append_escaped(std::string& out, char32_t cp) {
  // json.dumps' short escapes (ESCAPE_DCT); other characters outside ' '..'~': \uXXXX.
  static constexpr std::pair<char32_t, const char*> kShortEscapes[] = {
      {'"', "\\\""}, {'\\', "\\\\"}, {'\b', "\\b"}, {'\f', "\\f"},
      {'\n', "\\n"}, {'\r', "\\r"},  {'\t', "\\t"}};
  for (const auto& [c, escape] : kShortEscapes)
    if (cp == c) {
      out += escape;
      return;
    }
  if (cp >= 0x20 && cp <= 0x7E) {
    out += static_cast<char>(cp);
  } else if (cp < 0x10000) {
    append_u_escape(out, static_cast<unsigned>(cp));
  } else {
    unsigned v = static_cast<unsigned>(cp) - 0x10000;
    append_u_escape(out, 0xD800 | (v >> 10));
    append_u_escape(out, 0xDC00 | (v & 0x3FF));
  }
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) append_escaped(out, next_code_point(s, i));
  out += '"';
}

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

std::string quote(std::string_view s) {
  constexpr size_t kMaxShown = 60;
  bool cut = s.size() > kMaxShown;
  if (cut) {
    s = s.substr(0, kMaxShown);
    // Do not cut inside a UTF-8 sequence.
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.remove_suffix(1);
    if (!s.empty() && static_cast<unsigned char>(s.back()) >= 0xC0) s.remove_suffix(1);
  }
  std::string out;
  append_json_string(out, s);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

bool is_valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t before = i;
    char32_t cp = next_code_point(s, i);
    if (cp == kReplacement && !(i - before == 3 && s.substr(before, 3) == "\xEF\xBF\xBD"))
      return false;
  }
  return true;
}

}  // namespace distkit
