// The subset of OpenSSH's ssh_config(5) that distkit users rely on, so a
// host reachable with `ssh name` is reachable by distkit under the same name.
//
// Semantics follow OpenSSH: keywords are case-insensitive, `Key value` or
// `Key=value`, for each keyword the FIRST value that applies wins (except
// IdentityFile, which accumulates), `Host` patterns with `*`, `?` and
// `!negation`, `Include` with globs (relative paths against ~/.ssh).
//
// `Match` blocks: the criteria `all`, `host`, `originalhost`, `user` and
// `localuser` (each may be negated with `!`; all criteria of one line must
// hold) are evaluated here, in file order, as ssh(1) does: `host` sees the
// HostName set so far, `user` the user given as user@host or set so far.
// A block whose other criteria hold but which also needs a criterion only
// ssh(1) can decide (`exec`, `canonical`, `final`, `localnetwork`,
// `tagged`, `version`, `sessiontype`, `command`) is not applied; instead
// the host is marked for the system ssh binary (HostConfig::system_ssh_reason)
// so ssh(1) evaluates the whole file itself. Other criteria are errors.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace distkit::ssh {

// What applies to one host after evaluating the whole file.
struct HostConfig {
  std::string alias;      // the name looked up
  std::string host_name;  // HostName (%h expanded) or alias
  std::optional<std::string> user;
  std::optional<int> port;
  std::vector<std::string> identity_files;  // ~ and %d/%h/%r/%u expanded
  bool identities_only = false;
  std::vector<std::string> known_hosts_files;  // UserKnownHostsFile, expanded
  // "yes", "no" or "accept-new" ("ask" becomes "yes": we never prompt).
  std::optional<std::string> strict_host_key_checking;
  std::optional<int> connect_timeout_s;
  std::optional<int> server_alive_interval_s;
  std::optional<int> server_alive_count_max;
  std::optional<std::string> proxy_jump;     // libssh2 cannot: system ssh
  std::optional<std::string> proxy_command;  // idem
  // Set when a Match block needs ssh(1) to decide (see the file comment):
  // "Match exec at <file> line <n>".
  std::optional<std::string> undecided_match;
  bool needs_system_ssh() const { return proxy_jump || proxy_command || undecided_match; }
  // Why this host goes through the system ssh binary, for --verbose
  // ("ProxyJump", "ProxyCommand" or undecided_match); empty when it does not.
  std::string system_ssh_reason() const;
};

// Reads the files an `Include` names: (path, contents) for each file the
// glob `pattern` (already made absolute) matches, sorted by path.
using IncludeReader =
    std::function<std::vector<std::pair<std::string, std::string>>(const std::string& pattern)>;

class SshConfig {
 public:
  // Parses `text` (from `origin`, used in error messages). `home` is used
  // for ~ expansion and relative Include paths (home/.ssh/...). Throws
  // UsageError "<origin> line <n>: <problem>; fix or remove that line" on
  // bad values (non-numeric Port, unknown StrictHostKeyChecking value, a
  // keyword with no value, an unknown Match criterion or one missing its
  // argument, Include nesting deeper than 16 or reading more than 1024 files).
  static SshConfig parse(std::string_view text, const std::string& origin, const std::string& home,
                         const IncludeReader& include = {});

  // Reads `path` from disk, Includes from disk (glob(3)). Throws UsageError
  // when the file cannot be read.
  static SshConfig load(const std::filesystem::path& path);

  // The user's home directory, as ssh(1) finds it: $HOME, else the
  // password database's entry, else "/". Not thread-safe (getpwuid).
  static std::string user_home();
  // The home this configuration was parsed with (~ and OpenSSH's default
  // files are under it).
  const std::string& home() const { return home_; }

  // The file to use: `explicit_path`, else $DISTKIT_SSH_CONFIG, else
  // ~/.ssh/config when it exists, else nullopt (no config).
  static std::optional<std::filesystem::path> default_path(
      const std::optional<std::filesystem::path>& explicit_path);

  // Everything that applies to `host`. `local_user` expands %u and is what
  // `Match localuser` sees; `given_user` (from user@host) wins over User
  // and is what `Match user` sees.
  HostConfig lookup(const std::string& host, const std::string& local_user = "",
                    const std::optional<std::string>& given_user = std::nullopt) const;

  // One criterion of a Match line: `[!]name [argument]`.
  struct Criterion {
    std::string name;  // lower-case: "all", "host", "exec", ...
    bool negated = false;
    std::string arg;  // pattern list or command; empty for all/canonical/final
  };
  // A Host or Match line: what later entries depend on. `Host <patterns>`
  // is kept as `Match originalhost <patterns>`, which means the same.
  struct Block {
    std::vector<Criterion> criteria;
    std::string where;  // "origin line N"
  };
  struct Entry {
    int block = -1;       // index into blocks_; -1 = before any Host/Match
    std::string keyword;  // lower-case
    std::vector<std::string> args;
    std::string where;  // "origin line N" for errors
  };

 private:
  std::vector<Block> blocks_;
  std::vector<Entry> entries_;
  std::string home_;
  friend struct ConfigParser;
};

// Shell-style wildcard match (only * and ?).
bool wildcard_match(std::string_view pattern, std::string_view text);

}  // namespace distkit::ssh
