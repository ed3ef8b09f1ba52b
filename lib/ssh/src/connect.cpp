// connect_all: one executor per host, connected in parallel by at most
// `fanout` worker threads; every failure collected as a HostError.
#include "distkit/ssh/connect.hpp"

#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

#include "connect_failure.hpp"
#include "distkit/ssh/local_executor.hpp"
#include "distkit/ssh/ssh_config.hpp"
#include "remote_executors.hpp"

namespace distkit::ssh {
namespace {

using detail::ConnectFailure;

std::string local_user() {
  if (const char* u = std::getenv("USER"); u && *u) return u;
  if (passwd* pw = getpwuid(getuid())) return pw->pw_name;
  return "root";
}

// What every connecting thread shares, read-only. local_user is looked up
// once here: getpwuid() is not thread-safe.
struct ConnectPlan {
  std::optional<std::filesystem::path> config_path;
  SshConfig config;
  const ConnectOptions& options;
  std::string local_user;
};

void say(const ConnectOptions& o, const std::string& line) {
  if (o.verbose) std::fprintf(stderr, "distkit: ssh: %s\n", line.c_str());
}

std::string strictness(const HostConfig& hc, const ConnectOptions& o) {
  std::string configured = hc.strict_host_key_checking.value_or("yes");
  if (configured == "no") return "no";
  return o.accept_new_host_keys ? "accept-new" : configured;
}

// ssh(1)'s stderr for a failed `true` → a HostError kind.
std::string classify_ssh_error(const std::string& err) {
  if (err.find("Permission denied") != std::string::npos) return "auth";
  if (err.find("Host key verification failed") != std::string::npos ||
      err.find("HOST IDENTIFICATION HAS CHANGED") != std::string::npos)
    return "host-key";
  if (err.find("timed out") != std::string::npos) return "timeout";
  return "unreachable";
}

std::shared_ptr<Executor> connect_system_ssh(const std::string& host, const HostConfig& hc,
                                             const ConnectPlan& plan) {
  const auto& o = plan.options;
  auto timeout_s = hc.connect_timeout_s.value_or(
      static_cast<int>(std::max<long long>(1, o.connect_timeout.count() / 1000)));
  std::vector<std::string> opts{"BatchMode=yes", "ConnectTimeout=" + std::to_string(timeout_s)};
  if (strictness(hc, o) == "accept-new" && !hc.strict_host_key_checking)
    opts.push_back("StrictHostKeyChecking=accept-new");
  std::optional<std::string> cfg;
  if (plan.config_path) cfg = plan.config_path->string();
  if (hc.proxy_jump || hc.proxy_command)
    say(o, host + ": libssh2 cannot do " + hc.system_ssh_reason() +
               "; using the system ssh binary for this host");
  else
    say(o, host + ": ssh_config " + hc.system_ssh_reason() +
               " needs ssh itself to decide; using the system ssh binary for this host");
  auto ex = std::make_shared<detail::SystemSshExecutor>(host, cfg, opts);
  auto r = ex->run("true");
  if (!r.exit.error.empty())
    throw ConnectFailure(classify_ssh_error(r.exit.error),
                         host + ": " + r.exit.error + "; check `ssh " + host + " true`");
  return ex;
}

std::shared_ptr<Executor> connect_one(const std::string& host, const ConnectPlan& plan) {
  const auto& o = plan.options;
  // "user@name" as ssh(1) takes it: Host patterns match the name part.
  auto at = host.rfind('@');
  std::string name = at == std::string::npos ? host : host.substr(at + 1);
  std::optional<std::string> given_user;
  if (at != std::string::npos) given_user = host.substr(0, at);
  HostConfig hc = plan.config.lookup(name, plan.local_user, given_user);
  hc.alias = host;
  if (is_local_host(hc.host_name)) {
    say(o, host + ": this machine; running commands locally without ssh");
    return std::make_shared<LocalExecutor>(host);
  }
  if (hc.needs_system_ssh()) return connect_system_ssh(host, hc, plan);
  detail::SessionOptions so;
  // ssh_config's seconds (up to 9 digits) as chrono's, not int * 1000:
  // "ConnectTimeout 2147484" overflowed to "within -2147483296 ms".
  so.connect_timeout =
      hc.connect_timeout_s ? std::chrono::seconds(*hc.connect_timeout_s) : o.connect_timeout;
  so.keepalive_interval = hc.server_alive_interval_s
                              ? std::chrono::seconds(*hc.server_alive_interval_s)
                              : o.keepalive_interval;
  so.keepalive_count_max = hc.server_alive_count_max.value_or(o.keepalive_count_max);
  so.max_channels = o.max_channels_per_host;
  so.strict_host_key_checking = strictness(hc, o);
  const std::string& home = plan.config.home();
  if (hc.known_hosts_files.empty())
    hc.known_hosts_files = {home + "/.ssh/known_hosts", home + "/.ssh/known_hosts2"};
  if (hc.identity_files.empty())  // OpenSSH's defaults, ed25519 first
    hc.identity_files = {home + "/.ssh/id_ed25519", home + "/.ssh/id_ecdsa", home + "/.ssh/id_rsa"};
  std::string user = hc.user.value_or(plan.local_user);
  auto t0 = std::chrono::steady_clock::now();
  auto session = detail::SshSession::open(hc, user, so);
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  say(o, host + ": connected with libssh2 to " + hc.host_name + " port " +
             std::to_string(hc.port.value_or(22)) + " as " + user + " in " + std::to_string(ms) +
             " ms");
  return std::make_shared<detail::SshExecutor>(host, std::move(session));
}

SshConfig load_config(const std::optional<std::filesystem::path>& path) {
  if (!path) return SshConfig::parse("", "(none)", SshConfig::user_home());
  return SshConfig::load(*path);
}

}  // namespace

Connections connect_all(const std::vector<std::string>& hosts, const ConnectOptions& options) {
  auto path = SshConfig::default_path(options.ssh_config);
  ConnectPlan plan{path, load_config(path), options, local_user()};
  // Distinct hosts, in first-seen order.
  std::vector<std::string> distinct;
  std::map<std::string, size_t> index;
  for (const auto& h : hosts)
    if (index.emplace(h, distinct.size()).second) distinct.push_back(h);
  std::vector<std::shared_ptr<Executor>> executors(distinct.size());
  std::vector<std::optional<HostError>> failures(distinct.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < distinct.size();) {
      try {
        executors[i] = connect_one(distinct[i], plan);
      } catch (const ConnectFailure& f) {
        failures[i] = HostError{distinct[i], f.kind, f.what()};
      } catch (const std::exception& e) {
        failures[i] = HostError{distinct[i], "protocol", distinct[i] + ": " + e.what()};
      }
    }
  };
  size_t n = std::min(distinct.size(), static_cast<size_t>(std::max(1, options.fanout)));
  std::vector<std::thread> pool;
  for (size_t t = 0; t < n; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  Connections out;
  for (const auto& h : hosts) out.executors.push_back(executors[index[h]]);
  for (auto& f : failures)
    if (f) out.errors.push_back(std::move(*f));
  return out;
}

std::optional<std::string> resolve_hostname(
    const std::string& host, const std::optional<std::filesystem::path>& ssh_config) {
  auto path = SshConfig::default_path(ssh_config);
  HostConfig hc = load_config(path).lookup(host, local_user());
  if (hc.host_name == host) return std::nullopt;
  return hc.host_name;
}

}  // namespace distkit::ssh
