// Connecting to a set of hosts: the one entry point the tools use to get an
// Executor per host. Local names get a LocalExecutor; every other host gets
// one SSH session (libssh2) reused for all its commands, or the system `ssh`
// binary when its ssh_config needs what libssh2 cannot do (ProxyJump,
// ProxyCommand). Hosts are connected in parallel with a fan-out limit, and
// every failure is collected per host instead of stopping at the first.
//
// Known limit of the SSH executors: a command's timeout or abort() closes its
// channel and reports at once, but the remote process is not signalled
// (libssh2 1.10 cannot send a channel signal, and sshd does not signal a
// command whose channel closes). Callers that must stop remote processes run
// a kill command (e.g. by process group recorded at launch).
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "distkit/ssh/executor.hpp"

namespace distkit::ssh {

struct ConnectOptions {
  // ssh_config to read; unset: $DISTKIT_SSH_CONFIG, else ~/.ssh/config (a
  // missing default file is not an error; a missing named file is).
  std::optional<std::filesystem::path> ssh_config;
  // Like `StrictHostKeyChecking accept-new`: unknown hosts are accepted and
  // their key appended to the known_hosts file. A changed key is always
  // refused.
  bool accept_new_host_keys = false;
  // Deadline for TCP connect + handshake + authentication of one host.
  // ssh_config's ConnectTimeout, when set for a host, wins.
  std::chrono::milliseconds connect_timeout{10000};
  // SSH keepalive period; a peer that misses `keepalive_count_max` in a row
  // is declared lost. ssh_config's ServerAliveInterval/CountMax win.
  std::chrono::milliseconds keepalive_interval{5000};
  int keepalive_count_max = 3;
  // Hosts connected at the same time.
  int fanout = 32;
  // Channels (commands) open at once on one host's session. OpenSSH's
  // MaxSessions default is 10.
  int max_channels_per_host = 8;
  // Say on stderr how each host is reached (libssh2, system ssh, local).
  bool verbose = false;
};

// One host that could not be reached, with a message a user can act on
// (`<host>: <problem>; <remedy>`). kind is one of: "unreachable", "auth",
// "host-key", "timeout", "config", "protocol".
struct HostError {
  std::string host;
  std::string kind;
  std::string message;
};

struct Connections {
  // Same order as the hosts given; nullptr where that host failed.
  std::vector<std::shared_ptr<Executor>> executors;
  // One entry per failed host, in host order.
  std::vector<HostError> errors;
};

// Connects every host (duplicates share one executor). Never throws for a
// host failure; throws UsageError when the ssh_config named by the options
// cannot be read or parsed.
Connections connect_all(const std::vector<std::string>& hosts, const ConnectOptions& options);

// True for 127.0.0.0/8, ::1, "localhost", this machine's hostname (full or
// short) and any address of one of its interfaces.
bool is_local_host(std::string_view host);

// The address ssh would connect to for `host`: ssh_config's HostName (with
// %h expanded) when one applies, else nullopt. `ssh_config` unset means the
// same default file as ConnectOptions.
std::optional<std::string> resolve_hostname(
    const std::string& host, const std::optional<std::filesystem::path>& ssh_config = std::nullopt);

}  // namespace distkit::ssh
