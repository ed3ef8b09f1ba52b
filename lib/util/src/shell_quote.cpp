// Why single quotes: inside them a POSIX shell interprets nothing at all, so
// the only character needing care is the single quote itself. This is the
// quoting Python's shlex.quote uses, which the reference tools rely on.
#include "distkit/util/shell_quote.hpp"

#include "distkit/util/strings.hpp"

namespace distkit {

std::string shell_quote(std::string_view s) {
  // Letters, digits and _ (is_word) and these are never special to a shell.
  if (!s.empty() && is_word(s, "@%+=:,./-")) return std::string(s);
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string_view("'\\''") : std::string_view(&c, 1);
  return out + '\'';
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + shell_quote(w);
  return out;
}

}  // namespace distkit
