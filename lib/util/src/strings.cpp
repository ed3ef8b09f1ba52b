// See strings.hpp.
#include "distkit/util/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
#include <utility>

namespace distkit {

std::string_view trim(std::string_view s) {
  const char* ws = " \t\r\n\f\v";
  size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    size_t p = s.find(sep, start);
    out.emplace_back(s.substr(start, p - start));  // to the end when p is npos
    if (p == std::string_view::npos) return out;
    start = p + 1;
  }
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t start = 0; start < s.size();) {
    size_t p = s.find('\n', start);
    std::string_view line = s.substr(start, p - start);  // to the end when p is npos
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (p == std::string_view::npos) break;
    start = p + 1;
  }
  return out;
}

std::string first_line(std::string_view s) {
  for (auto line : split_lines(s))
    if (!trim(line).empty()) return std::string(trim(line));
  return "";
}

std::string last_line(std::string_view s) {
  auto lines = split_lines(s);
  auto it = std::find_if(lines.rbegin(), lines.rend(), [](auto l) { return !trim(l).empty(); });
  return it == lines.rend() ? "" : std::string(trim(*it));
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  return fmt::format("{}", fmt::join(parts, sep));
}

std::string line_column(std::string_view text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    line += text[i] == '\n';
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool is_word(std::string_view s, std::string_view extra) {
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          extra.find(c) != std::string_view::npos))
      return false;
  return true;
}

namespace {
// Levenshtein distance, for "did you mean" suggestions.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), size_t(0));
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates,
                         std::string otherwise) {
  const std::string* best = nullptr;
  size_t best_d = 3;  // the closest candidate within 2 edits
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = &c;
    }
  }
  return best ? "did you mean \"" + *best + "\"?" : std::move(otherwise);
}

std::string seconds_text(double seconds) {
  return fmt::format("{:.1f} s", seconds);
}

}  // namespace distkit
