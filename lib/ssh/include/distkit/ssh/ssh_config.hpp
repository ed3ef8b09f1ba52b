// The subset of OpenSSH's ssh_config(5) that distkit users rely on, so a
// host reachable with `ssh name` is reachable by distkit under the same name.
//
// Semantics follow OpenSSH: keywords are case-insensitive, `Key value` or
// `Key=value`, for each keyword the FIRST value that applies wins (except
// IdentityFile, which accumulates), `Host` patterns with `*`, `?` and
// `!negation`, `Include` with globs (relative paths against ~/.ssh).
// `Match` blocks are not supported: their contents are ignored.
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
  bool needs_system_ssh() const { return proxy_jump || proxy_command; }
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
  // keyword with no value, Include nesting deeper than 16).
  static SshConfig parse(std::string_view text, const std::string& origin, const std::string& home,
                         const IncludeReader& include = {});

  // Reads `path` from disk, Includes from disk (glob(3)). Throws UsageError
  // when the file cannot be read.
  static SshConfig load(const std::filesystem::path& path);

  // The file to use: `explicit_path`, else $DISTKIT_SSH_CONFIG, else
  // ~/.ssh/config when it exists, else nullopt (no config).
  static std::optional<std::filesystem::path> default_path(
      const std::optional<std::filesystem::path>& explicit_path);

  // Everything that applies to `host`. `local_user` expands %u.
  HostConfig lookup(const std::string& host, const std::string& local_user = "") const;

  struct Entry {
    std::vector<std::string> patterns;  // the enclosing Host line; empty = all
    bool in_match = false;              // inside an unsupported Match block
    std::string keyword;                // lower-case
    std::vector<std::string> args;
    std::string where;  // "origin line N" for errors
  };

 private:
  std::vector<Entry> entries_;
  std::string home_;
  friend struct ConfigParser;
};

// OpenSSH pattern list matching: comma-separated patterns, * and ?,
// a matching !pattern rejects the host.
bool host_matches(const std::vector<std::string>& patterns, std::string_view host);

// Shell-style wildcard match (only * and ?).
bool wildcard_match(std::string_view pattern, std::string_view text);

}  // namespace distkit::ssh
