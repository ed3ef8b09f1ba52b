// Slurm host-list expansion (see slurm.hpp). Handles one or more bracket
// groups per name ("r[1-2]n[1-2]" -> r1n1 r1n2 r2n1 r2n2).
#include "distkit/launch/slurm.hpp"

#include <cctype>

#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::launch {

namespace {

[[noreturn]] void bad(std::string_view list, const std::string& why) {
  throw UsageError("SLURM_JOB_NODELIST", "cannot expand '" + std::string(list) + "': " + why,
                   "give the hosts with --hosts or --hostfile");
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "1-3,07" -> {"1","2","3","07"}
std::vector<std::string> expand_ranges(std::string_view inside, std::string_view list) {
  std::vector<std::string> out;
  for (const auto& part : split(inside, ',')) {
    auto dash = part.find('-');
    std::string lo = part.substr(0, dash);
    std::string hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi) || lo.size() > 9 || hi.size() > 9)
      bad(list, "'" + part + "' is not a number or range");
    long a = std::stol(lo), b = std::stol(hi);
    if (b < a || b - a > 100000) bad(list, "range '" + part + "' is backwards or too large");
    for (long v = a; v <= b; ++v) {
      std::string s = std::to_string(v);
      if (s.size() < lo.size()) s.insert(0, lo.size() - s.size(), '0');
      out.push_back(s);
    }
  }
  return out;
}

// Expands one name that may contain several [..] groups.
void expand_name(std::string_view name, std::string prefix, std::vector<std::string>& out,
                 std::string_view list) {
  auto open = name.find('[');
  if (open == std::string_view::npos) {
    if (name.find(']') != std::string_view::npos) bad(list, "unbalanced ']'");
    out.push_back(prefix + std::string(name));
    return;
  }
  auto close = name.find(']', open);
  if (close == std::string_view::npos) bad(list, "unbalanced '['");
  std::string head = prefix + std::string(name.substr(0, open));
  for (const auto& v : expand_ranges(name.substr(open + 1, close - open - 1), list))
    expand_name(name.substr(close + 1), head + v, out, list);
}

}  // namespace

std::vector<std::string> expand_slurm_nodelist(std::string_view list) {
  std::vector<std::string> out;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    char c = i < list.size() ? list[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0) bad(list, "unbalanced ']'");
    if (c == ',' && depth == 0) {
      std::string_view name = trim(list.substr(start, i - start));
      if (!name.empty()) expand_name(name, "", out, list);
      start = i + 1;
    }
  }
  if (depth != 0) bad(list, "unbalanced '['");
  if (out.empty()) bad(list, "no nodes");
  return out;
}

}  // namespace distkit::launch
