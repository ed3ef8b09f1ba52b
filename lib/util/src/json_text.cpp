// See json_text.hpp. The escaping rules are CPython's Lib/json/encoder.py
// (py_encode_basestring_ascii): ESCAPE_ASCII = ([\\"]|[^\ -~]).
#include "distkit/util/json_text.hpp"

#include <nlohmann/json.hpp>

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

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    // An invalid byte is the only one-byte U+FFFD.
    if (next_code_point(s, i) == kReplacement && i - start == 1)
      out += "\xEF\xBF\xBD";
    else
      out += s.substr(start, i - start);
  }
  return out;
}

std::string json_string(std::string_view s) {
  // nlohmann::json escapes as json.dumps does with ensure_ascii: the short
  // escapes, other characters outside ' '..'~' as lower-case \uXXXX.
  return nlohmann::json(valid_utf8(s)).dump(-1, ' ', true);
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
  std::string out = json_string(s);
  if (cut) out.insert(out.size() - 1, "...");
  return out;
}

bool is_valid_utf8(std::string_view s) {
  return valid_utf8(s) == s;
}

}  // namespace distkit
