// Semantic checks on a hostfile model, shared by parse() (after the type
// checks) and by code that builds a model itself (distconfig, --hosts).
// Each check throws the first problem it finds as one actionable line.
#include <arpa/inet.h>

#include <map>
#include <string>
#include <variant>

#include "distkit/hostfile/hostfile.hpp"
#include "distkit/util/decimal.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"
#include "fail.hpp"

namespace distkit::hostfile {

using detail::fail;
using detail::host_path;

namespace {

void check_utf8(std::string_view s, std::string_view src, const std::string& path) {
  if (!is_valid_utf8(s)) fail(src, path, "is not valid UTF-8", "save the file as UTF-8");
}

void check_env(const std::string& e, std::string_view src, const std::string& path) {
  check_utf8(e, src, path);
  size_t eq = e.find('=');
  if (eq == std::string::npos)
    fail(src, path, quote(e) + " is not KEY=VALUE", "write e.g. \"MLX_RING_VERBOSE=1\"");
  if (eq == 0) fail(src, path, quote(e) + " has an empty key", "write KEY=VALUE");
  if (!is_word(std::string_view(e).substr(0, eq)))
    fail(src, path, "key " + quote(e.substr(0, eq)) + " may contain only letters, digits and '_'",
         "rename the variable");
  if (e.find('\0') != std::string::npos)
    fail(src, path, "value contains a NUL character", "remove it");
}

void check_ssh(const std::string& ssh, std::string_view src, const std::string& path) {
  check_utf8(ssh, src, path);
  if (ssh.find_first_not_of(" \t\n\r") == std::string::npos)
    fail(src, path, "is empty", "give the host's SSH name or address, e.g. \"ssh\": \"studio-a\"");
  if (ssh[0] == '-')
    fail(src, path, quote(ssh) + " starts with '-'", "give a host name, not an ssh option");
  for (unsigned char c : ssh)
    if (c <= 0x20 || c == 0x7F)
      fail(src, path, quote(ssh) + " contains white space or a control character",
           "give one host name or address");
}

void check_ips(const Host& h, std::string_view src, const std::string& path) {
  for (size_t j = 0; j < h.ips.size(); ++j) {
    if (!is_ip_address(h.ips[j]))
      fail(src, path + ".ips[" + std::to_string(j) + "]",
           quote(h.ips[j]) + " is not an IPv4 or IPv6 address",
           "give an address such as \"192.168.0.2\" (host names belong in \"ssh\")");
  }
}

void check_device(const std::string& name, std::string_view src, const std::string& path) {
  check_utf8(name, src, path);
  if (name.empty())
    fail(src, path, "device name is empty",
         "write a name such as \"rdma_en3\", or null for no link");
}

void check_rdma_entry(const RdmaEntry& e, std::string_view src, const std::string& path) {
  if (const auto* name = std::get_if<std::string>(&e)) return check_device(*name, src, path);
  if (const auto* list = std::get_if<std::vector<std::string>>(&e)) {
    if (list->empty()) fail(src, path, "is an empty list", "write null when there is no link");
    for (size_t k = 0; k < list->size(); ++k)
      check_device((*list)[k], src, path + "[" + std::to_string(k) + "]");
  }
}

std::string describe_entry(const RdmaEntry& e) {
  if (const auto* name = std::get_if<std::string>(&e)) return quote(*name);
  return "a list of devices";
}

std::string cell(size_t i, size_t j) {
  return host_path(i) + ".rdma[" + std::to_string(j) + "]";
}

void check_rdma(const Host& h, size_t i, size_t n, std::string_view src, const std::string& path) {
  if (h.rdma.empty()) return;
  if (h.rdma.size() != n)
    fail(src, path + ".rdma",
         "has " + std::to_string(h.rdma.size()) + " entries for " + std::to_string(n) + " hosts",
         "give one entry per host (null for the host itself), or [] when not using RDMA");
  for (size_t j = 0; j < n; ++j) check_rdma_entry(h.rdma[j], src, cell(i, j));
  if (!std::holds_alternative<std::monostate>(h.rdma[i]))
    fail(src, cell(i, i),
         "is " + describe_entry(h.rdma[i]) + " but a host's entry for itself must be null",
         "write null at index " + std::to_string(i));
}

std::string ips_text(const std::vector<std::string>& ips) {
  std::string out = "[";
  for (size_t i = 0; i < ips.size(); ++i) out += (i ? ", " : "") + quote(ips[i]);
  return out + "]";
}

// A host listed again is one more rank on it, as in MLX (how a hostfile puts
// two ranks on one host). Its entries must agree on "ips": one host with
// two address lists is a conflict, not a second rank.
void check_repeats(const std::vector<Host>& hosts, std::string_view src) {
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < hosts.size(); ++i) {
    auto [it, inserted] = first.emplace(hosts[i].ssh, i);
    const Host& was = hosts[it->second];
    if (!inserted && was.ips != hosts[i].ips)
      fail(src, host_path(i) + ".ips",
           ips_text(hosts[i].ips) + " differs from " + ips_text(was.ips) + " of " +
               host_path(it->second) + ", the same host " + quote(hosts[i].ssh),
           "give every entry of a host the same \"ips\" (each entry is one more rank there)");
  }
}

// Devices an rdma entry names (0 for null).
size_t width(const RdmaEntry& e) {
  if (std::holds_alternative<std::string>(e)) return 1;
  if (const auto* list = std::get_if<std::vector<std::string>>(&e)) return list->size();
  return 0;
}

// Every row has one entry per host (a row of [] means no RDMA at all).
void require_rows(const std::vector<Host>& hosts, std::string_view name, std::string_view src) {
  for (size_t i = 0; i < hosts.size(); ++i)
    if (hosts[i].rdma.size() != hosts.size())
      fail(src, host_path(i) + ".rdma",
           "has " + std::to_string(hosts[i].rdma.size()) + " entries but " + std::string(name) +
               " needs one per host",
           "regenerate the hostfile with distconfig, or use the ring backend");
}

// jaccl (a full mesh): every pair talks over its own device.
void require_mesh(const std::vector<Host>& hosts, std::string_view src) {
  for (size_t i = 0; i < hosts.size(); ++i)
    for (size_t j = 0; j < hosts.size(); ++j)
      if (i != j && width(hosts[i].rdma[j]) == 0)
        fail(src, cell(i, j),
             "is null but backend \"jaccl\" (a full mesh) needs a device for every pair, " +
                 hosts[i].ssh + " to " + hosts[j].ssh + " (" + host_path(j) + ") too",
             "name the device " + hosts[i].ssh + " reaches it with, or regenerate the hostfile " +
                 "with distconfig (jaccl-ring or ring when a pair has no cable)");
}

// jaccl-ring: host order is ring order; each host talks to its two
// neighbours over the same number of devices on every ring link.
void require_ring(const std::vector<Host>& hosts, std::string_view src) {
  const size_t n = hosts.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j : {(i + n - 1) % n, (i + 1) % n})
      if (width(hosts[i].rdma[j]) == 0)
        fail(src, cell(i, j),
             "is null but backend \"jaccl-ring\" links each host to its ring neighbours, " +
                 hosts[i].ssh + " to " + hosts[j].ssh + " (" + host_path(j) + ") here",
             "list the hosts in ring order (each cabled to the next, the last to the first), "
             "or regenerate the hostfile with distconfig");
  const size_t cables = width(hosts[0].rdma[1]);
  for (size_t i = 0; i < n; ++i)
    for (size_t j : {(i + n - 1) % n, (i + 1) % n})
      if (width(hosts[i].rdma[j]) != cables)
        fail(src, cell(i, j),
             "names " + std::to_string(width(hosts[i].rdma[j])) + " device(s) but " + cell(0, 1) +
                 " names " + std::to_string(cables) +
                 ": backend \"jaccl-ring\" uses as many cables on every ring link",
             "give every ring neighbour the same number of devices, or regenerate the hostfile "
             "with distconfig");
}

}  // namespace

std::string env_advice(std::string_view entry) {
  constexpr std::string_view key = "MLX_METAL_FAST_SYNCH=";
  if (entry.substr(0, key.size()) != key) return "";
  if (parse_decimal<long>(trim(entry.substr(key.size()))).value_or(0) == 0) return "";
  return std::string(entry) +
         " can wedge the GPU (MLX #3142, #4005); leave it unset, as MLX's docs now advise";
}

void require_jaccl_links(const std::vector<Host>& hosts, Backend backend,
                         std::string_view subject) {
  if (backend != Backend::jaccl && backend != Backend::jaccl_ring) return;
  std::string name = "backend \"" + std::string(to_string(backend)) + "\"";
  require_rows(hosts, name, subject);
  if (hosts.size() < 2) return;
  if (backend == Backend::jaccl)
    require_mesh(hosts, subject);
  else
    require_ring(hosts, subject);
}

void detail::check_host_count(size_t n, std::string_view src) {
  if (n == 0)
    fail(src, "hosts", "is empty", "list at least one host, e.g. [{\"ssh\": \"studio-a\"}]");
  if (n > kMaxHosts)
    fail(src, "hosts",
         "has " + std::to_string(n) + " entries, more than the " + std::to_string(kMaxHosts) +
             " distkit accepts",
         "split the cluster into several hostfiles");
}

bool is_ip_address(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.find('\0') != std::string_view::npos) return false;
  std::string addr(s);
  unsigned char buf[16];
  if (addr.find(':') == std::string::npos) return ::inet_pton(AF_INET, addr.c_str(), buf) == 1;
  if (size_t pct = addr.find('%'); pct != std::string::npos) {
    std::string_view zone = s.substr(pct + 1);
    if (zone.empty() || !is_word(zone, ".-")) return false;
    addr.resize(pct);
  }
  return ::inet_pton(AF_INET6, addr.c_str(), buf) == 1;
}

void validate(const Hostfile& hf, std::string_view subject) {
  for (size_t k = 0; k < hf.envs.size(); ++k)
    check_env(hf.envs[k], subject, "envs[" + std::to_string(k) + "]");
  detail::check_host_count(hf.hosts.size(), subject);
  for (size_t i = 0; i < hf.hosts.size(); ++i) {
    const Host& h = hf.hosts[i];
    std::string path = host_path(i);
    check_ssh(h.ssh, subject, path + ".ssh");
    check_ips(h, subject, path);
    check_rdma(h, i, hf.hosts.size(), subject, path);
  }
  check_repeats(hf.hosts, subject);
}

}  // namespace distkit::hostfile
