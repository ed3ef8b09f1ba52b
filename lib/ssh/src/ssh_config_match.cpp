// OpenSSH pattern matching and Match criteria (see ssh_config.hpp for what
// is supported and ssh_config_match.hpp for the contracts).
#include "ssh_config_match.hpp"

#include <algorithm>

#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::ssh {

bool wildcard_match(std::string_view p, std::string_view t) {
  size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

bool host_matches(const std::vector<std::string>& patterns, std::string_view host) {
  bool positive = false;
  for (const auto& list : patterns)
    for (const auto& pat : split(list, ',')) {
      if (pat.empty()) continue;
      if (pat[0] == '!') {
        if (wildcard_match(std::string_view(pat).substr(1), host)) return false;
      } else if (wildcard_match(pat, host)) {
        positive = true;
      }
    }
  return positive;
}

namespace detail {
namespace {

// Criteria without an argument, with a pattern-list argument, and those
// only ssh(1) can decide (exec runs a command; the others need state or
// options distkit does not have).
constexpr std::string_view kBare[] = {"all", "canonical", "final"};
constexpr std::string_view kWithArg[] = {"host",        "originalhost", "user",   "localuser",
                                         "exec",        "localnetwork", "tagged", "version",
                                         "sessiontype", "command"};
constexpr std::string_view kUndecidable[] = {"exec",   "canonical", "final",       "localnetwork",
                                             "tagged", "version",   "sessiontype", "command"};

template <size_t N>
bool in(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

}  // namespace

std::vector<SshConfig::Criterion> parse_match(const std::vector<std::string>& words,
                                              const std::string& where) {
  std::vector<SshConfig::Criterion> out;
  for (size_t i = 0; i < words.size(); ++i) {
    SshConfig::Criterion c;
    c.name = lower(words[i]);
    if (!c.name.empty() && c.name[0] == '!') {
      c.negated = true;
      c.name.erase(0, 1);
    }
    if (in(kWithArg, c.name)) {
      if (i + 1 == words.size())
        throw UsageError(where, "'Match " + words[i] + "' needs an argument",
                         "fix or remove that line");
      c.arg = words[++i];
    } else if (!in(kBare, c.name)) {
      throw UsageError(where, "unknown Match criterion '" + words[i] + "'",
                       "use all, host, originalhost, user, localuser or exec");
    }
    out.push_back(std::move(c));
  }
  bool has_all = std::any_of(out.begin(), out.end(), [](const auto& c) { return c.name == "all"; });
  bool others =
      std::any_of(out.begin(), out.end(), [](const auto& c) { return !in(kBare, c.name); });
  if (has_all && others)
    throw UsageError(where, "'Match all' cannot be combined with other criteria",
                     "fix or remove that line");
  return out;
}

MatchResult evaluate_match(const std::vector<SshConfig::Criterion>& criteria,
                           const MatchState& state, std::string* why) {
  bool undecided = false;
  for (const auto& c : criteria) {
    if (in(kUndecidable, c.name)) {
      if (!undecided && why) *why = c.name;
      undecided = true;
      continue;
    }
    std::string_view subject = c.name == "host"           ? state.host_name
                               : c.name == "originalhost" ? state.original_host
                               : c.name == "user"         ? state.user
                                                          : state.local_user;  // "localuser"
    bool holds = c.name == "all" || host_matches({c.arg}, subject);
    if (holds == c.negated) return MatchResult::no;
  }
  return undecided ? MatchResult::undecided : MatchResult::yes;
}

}  // namespace detail
}  // namespace distkit::ssh
