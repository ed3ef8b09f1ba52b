// Why single quotes: inside them a POSIX shell interprets nothing at all, so
// the only character needing care is the single quote itself. This is the
// quoting Python's shlex.quote uses, which the reference tools rely on.
#include "distkit/util/shell_quote.hpp"

namespace distkit {

namespace {
bool is_safe(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}
}  // namespace

std::string shell_quote(std::string_view s) {
  bool safe = !s.empty();
  for (char c : s) safe = safe && is_safe(c);
  if (safe) return std::string(s);
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += shell_quote(w);
  }
  return out;
}

}  // namespace distkit
