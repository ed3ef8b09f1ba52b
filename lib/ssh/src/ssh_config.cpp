// ssh_config parsing and lookup (see ssh_config.hpp for the semantics).
// Parsing only tokenizes into entries tagged with their Host/Match block;
// lookup() evaluates them in file order for one host, first value wins,
// deciding each Host/Match block with the patterns and criteria below.
#include "distkit/ssh/ssh_config.hpp"

#include <glob.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "distkit/util/decimal.hpp"
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

namespace {

// Splits a line into words; double quotes group, `Key=value` splits at '='.
std::vector<std::string> tokenize(std::string_view line) {
  std::vector<std::string> words;
  std::string cur;
  bool quoted = false, have = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      have = true;
    } else if (!quoted && (c == ' ' || c == '\t' || (c == '=' && words.empty()))) {
      if (have) words.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) words.push_back(cur);
  return words;
}

[[noreturn]] void bad_line(const std::string& where, const std::string& problem) {
  throw UsageError(where, problem, "fix or remove that line");
}

// The keywords whose value is a number, as ssh_config(5) spells them.
constexpr std::string_view kNumeric[] = {"Port", "ConnectTimeout", "ServerAliveInterval",
                                         "ServerAliveCountMax"};

int to_int(const std::string& where, std::string_view key, const std::string& v) {
  if (auto n = parse_digits(v, 9)) return static_cast<int>(*n);
  bad_line(where, std::string(key) + " '" + v + "' is not a non-negative number");
}

std::string expand_tokens(const std::string& s, const std::string& home, const std::string& host,
                          const std::string& user, const std::string& local_user) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == 0 && s[0] == '~' && (s.size() == 1 || s[1] == '/')) {
      out += home;
    } else if (s[i] == '%' && i + 1 < s.size()) {
      char c = s[++i];
      const std::string* token = c == 'h'   ? &host
                                 : c == 'd' ? &home
                                 : c == 'r' ? &user
                                 : c == 'u' ? &local_user
                                            : nullptr;
      out += token ? *token : c == '%' ? "%" : std::string("%") + c;
    } else {
      out += s[i];
    }
  }
  return out;
}

// OpenSSH pattern list matching: comma-separated patterns, * and ?,
// a matching !pattern rejects the host.
bool host_matches(std::string_view list, std::string_view host) {
  bool positive = false;
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

// The words after `Match` as criteria. Throws UsageError naming `where` for
// an unknown criterion, a missing argument, or `all` combined with others.
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
      if (i + 1 == words.size()) bad_line(where, "'Match " + words[i] + "' needs an argument");
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
  if (has_all && others) bad_line(where, "'Match all' cannot be combined with other criteria");
  return out;
}

// What a Match line is evaluated against: the state of the lookup so far.
struct MatchState {
  std::string_view original_host;  // as given (Host patterns see this too)
  std::string_view host_name;      // HostName so far (expanded), else original
  std::string_view user;           // user@ given, else User so far, else local
  std::string_view local_user;
};

enum class MatchResult { no, yes, undecided };

// yes when every criterion holds; no when a decidable one fails; otherwise
// undecided, with `*why` set to the first criterion only ssh(1) can decide.
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
    bool holds = c.name == "all" || host_matches(c.arg, subject);
    if (holds == c.negated) return MatchResult::no;
  }
  return undecided ? MatchResult::undecided : MatchResult::yes;
}

}  // namespace

// ssh(1) reads Includes at most 16 deep; a glob matching many files that
// include each other could still multiply without bound, so the number of
// files read for one config is capped too.
constexpr int kMaxIncludeDepth = 16;
constexpr int kMaxIncludedFiles = 1024;

struct ConfigParser {
  SshConfig& cfg;
  const IncludeReader& include;
  int block = -1;
  int files_read = 0;

  void parse(std::string_view text, const std::string& origin, int depth) {
    int n = 0;
    for (auto raw : split_lines(text)) {
      ++n;
      std::string where = origin + " line " + std::to_string(n);
      auto line = trim(raw);
      if (line.empty() || line[0] == '#') continue;
      auto words = tokenize(line);
      if (words.empty()) continue;
      std::string key = lower(words[0]);
      std::vector<std::string> args(words.begin() + 1, words.end());
      if (args.empty()) bad_line(where, "'" + words[0] + "' has no value");
      if (key == "host") {
        cfg.blocks_.push_back({{{"originalhost", false, join(args, ",")}}, where});
        block = static_cast<int>(cfg.blocks_.size()) - 1;
      } else if (key == "match") {
        cfg.blocks_.push_back({parse_match(args, where), where});
        block = static_cast<int>(cfg.blocks_.size()) - 1;
      } else if (key == "include") {
        for (const auto& a : args) include_one(a, where, depth);
      } else {
        cfg.entries_.push_back({block, key, args, where});
      }
    }
  }

  void include_one(const std::string& arg, const std::string& where, int depth) {
    if (!include) return;
    if (depth >= kMaxIncludeDepth) bad_line(where, "Include nested deeper than 16 levels");
    std::string path = expand_tokens(arg, cfg.home_, "", "", "");
    if (path.empty() || path[0] != '/') path = cfg.home_ + "/.ssh/" + path;
    int saved = block;
    for (const auto& [file, text] : include(path)) {
      if (++files_read > kMaxIncludedFiles) bad_line(where, "Include reads more than 1024 files");
      parse(text, file, depth + 1);
    }
    block = saved;
  }
};

SshConfig SshConfig::parse(std::string_view text, const std::string& origin,
                           const std::string& home, const IncludeReader& include) {
  SshConfig cfg;
  cfg.home_ = home;
  ConfigParser p{cfg, include};
  p.parse(text, origin, 0);
  // Validate values once, so a typo is reported even for hosts not used.
  for (const auto& e : cfg.entries_) {
    for (std::string_view k : kNumeric)
      if (e.keyword == lower(k)) to_int(e.where, k, e.args[0]);
    if (e.keyword == "stricthostkeychecking") {
      auto v = lower(e.args[0]);
      if (v != "yes" && v != "no" && v != "accept-new" && v != "ask" && v != "off")
        bad_line(e.where, "StrictHostKeyChecking '" + e.args[0] +
                              "' is not one of yes, no, accept-new, ask");
    }
  }
  return cfg;
}

namespace {

// A directory opens as a stream that reads nothing, which would pass for
// an empty config (--ssh-config ~/.ssh): not a file, so none.
std::optional<std::string> read_file(const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec)) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::pair<std::string, std::string>> read_glob(const std::string& pattern) {
  std::vector<std::pair<std::string, std::string>> files;
  glob_t g{};
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i)
      if (auto text = read_file(g.gl_pathv[i])) files.emplace_back(g.gl_pathv[i], *text);
  ::globfree(&g);
  return files;
}

}  // namespace

std::string SshConfig::user_home() {
  if (const char* h = std::getenv("HOME"); h && *h) return h;
  if (passwd* pw = getpwuid(getuid())) return pw->pw_dir;
  return "/";
}

SshConfig SshConfig::load(const std::filesystem::path& path) {
  auto text = read_file(path.string());
  if (!text)
    throw UsageError(path.string(), "cannot read this ssh config file",
                     "check the path given with --ssh-config or DISTKIT_SSH_CONFIG");
  return parse(*text, path.string(), user_home(), read_glob);
}

std::optional<std::filesystem::path> SshConfig::default_path(
    const std::optional<std::filesystem::path>& explicit_path) {
  if (explicit_path) return explicit_path;
  if (const char* env = std::getenv("DISTKIT_SSH_CONFIG"); env && *env)
    return std::filesystem::path(env);
  std::filesystem::path user = std::filesystem::path(user_home()) / ".ssh" / "config";
  std::error_code ec;
  if (std::filesystem::exists(user, ec)) return user;
  return std::nullopt;
}

std::string HostConfig::system_ssh_reason() const {
  if (proxy_jump) return "ProxyJump";
  if (proxy_command) return "ProxyCommand";
  return undecided_match.value_or("");
}

HostConfig SshConfig::lookup(const std::string& host, const std::string& local_user,
                             const std::optional<std::string>& given_user) const {
  HostConfig h;
  h.alias = host;
  std::optional<std::string> host_name, strict;
  std::optional<bool> only;
  // Whether each block applies, decided at its first entry: a Match line
  // sees the HostName and User set by the entries before it.
  std::vector<signed char> applies(blocks_.size(), -1);
  auto block_applies = [&](int b) {
    if (b < 0) return true;
    if (applies[b] < 0) {
      std::string name = host_name ? expand_tokens(*host_name, home_, host, "", local_user) : host;
      std::string user = given_user.value_or(h.user.value_or(local_user));
      std::string why;
      auto r = evaluate_match(blocks_[b].criteria, {host, name, user, local_user}, &why);
      if (r == MatchResult::undecided && !h.undecided_match)
        h.undecided_match = "Match " + why + " at " + blocks_[b].where;
      applies[b] = r == MatchResult::yes;
    }
    return applies[b] == 1;
  };
  for (const auto& e : entries_) {
    if (!block_applies(e.block)) continue;
    const auto& v = e.args[0];
    const auto& k = e.keyword;
    if (k == "hostname" && !host_name)
      host_name = v;
    else if (k == "user" && !h.user)
      h.user = v;
    else if (k == "port" && !h.port)
      h.port = to_int(e.where, "Port", v);
    else if (k == "identityfile")
      h.identity_files.push_back(v);
    else if (k == "identitiesonly" && !only)
      only = lower(v) == "yes";
    else if (k == "userknownhostsfile" && h.known_hosts_files.empty())  // no entry is empty
      h.known_hosts_files = e.args;
    else if (k == "stricthostkeychecking" && !strict)
      strict = lower(v);
    else if (k == "connecttimeout" && !h.connect_timeout_s)
      h.connect_timeout_s = to_int(e.where, "ConnectTimeout", v);
    else if (k == "serveraliveinterval" && !h.server_alive_interval_s)
      h.server_alive_interval_s = to_int(e.where, "ServerAliveInterval", v);
    else if (k == "serveralivecountmax" && !h.server_alive_count_max)
      h.server_alive_count_max = to_int(e.where, "ServerAliveCountMax", v);
    else if (k == "proxyjump" && !h.proxy_jump && lower(v) != "none")
      h.proxy_jump = v;
    else if (k == "proxycommand" && !h.proxy_command && lower(v) != "none")
      h.proxy_command = join(e.args, " ");
  }
  h.host_name = host_name ? expand_tokens(*host_name, home_, host, "", local_user) : host;
  if (given_user) h.user = given_user;
  std::string user = h.user.value_or(local_user);
  h.identities_only = only.value_or(false);
  for (auto& f : h.identity_files) f = expand_tokens(f, home_, host, user, local_user);
  for (auto& f : h.known_hosts_files) f = expand_tokens(f, home_, host, user, local_user);
  if (strict)
    h.strict_host_key_checking = (*strict == "ask") ? "yes" : (*strict == "off" ? "no" : *strict);
  return h;
}

}  // namespace distkit::ssh
