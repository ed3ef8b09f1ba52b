// See host_list.hpp: --hosts parsing, -n repetition, slot counting.
#include "distkit/hostfile/host_list.hpp"

#include <map>

#include "distkit/util/error.hpp"
#include "distkit/util/json_text.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::hostfile {

namespace {

void check_entry(std::string_view entry, size_t index, std::string_view flag) {
  std::string subject(flag);
  std::string nth = "entry " + std::to_string(index + 1);
  if (!is_valid_utf8(entry))
    throw UsageError(subject, nth + " is not valid UTF-8", "give host names in UTF-8");
  if (entry[0] == '-')
    throw UsageError(subject, quote(entry) + " starts with '-'",
                     "give a host name, not an ssh option");
  for (unsigned char c : entry)
    if (c <= 0x20 || c == 0x7F)
      throw UsageError(subject, quote(entry) + " has white space or a control character inside",
                       "separate hosts with commas");
}

}  // namespace

std::vector<Host> parse_host_list(std::string_view list, std::string_view flag,
                                  std::string_view repeated) {
  std::string subject(flag);
  if (trim(list).empty())
    throw UsageError(
        subject, "is empty",
        "give host names or addresses separated by commas, e.g. " + subject + " studio-a,studio-b");
  std::vector<std::string> entries = split(list, ',');
  if (entries.size() > kMaxHosts)
    throw UsageError(subject,
                     "has " + std::to_string(entries.size()) + " entries, more than the " +
                         std::to_string(kMaxHosts) + " distkit accepts",
                     "split the cluster");
  std::vector<Host> hosts;
  std::map<std::string, size_t, std::less<>> seen;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string_view entry = trim(entries[i]);
    if (entry.empty())
      throw UsageError(subject,
                       "entry " + std::to_string(i + 1) + " of " + quote(list) + " is empty",
                       "separate host names with single commas");
    check_entry(entry, i, flag);
    auto [it, inserted] = seen.emplace(std::string(entry), i);
    if (!inserted)
      throw UsageError(subject,
                       quote(entry) + " is listed twice (entries " +
                           std::to_string(it->second + 1) + " and " + std::to_string(i + 1) + ")",
                       std::string(repeated));
    Host h;
    h.ssh = std::string(entry);
    if (is_ip_address(entry)) h.ips.push_back(h.ssh);
    hosts.push_back(std::move(h));
  }
  return hosts;
}

std::vector<Host> repeat_hosts(const std::vector<Host>& hosts, int n, std::string_view flag) {
  std::string subject(flag);
  if (n < 1)
    throw UsageError(subject, "must be at least 1, got " + std::to_string(n),
                     "give the number of ranks per host");
  if (hosts.size() * static_cast<size_t>(n) > kMaxHosts)
    throw UsageError(subject,
                     std::to_string(hosts.size()) + " hosts x " + std::to_string(n) + " is " +
                         std::to_string(hosts.size() * static_cast<size_t>(n)) +
                         " ranks, more than the " + std::to_string(kMaxHosts) + " distkit accepts",
                     "ask for fewer ranks per host");
  if (n > 1)
    for (const Host& h : hosts)
      if (!h.rdma.empty())
        throw UsageError(subject,
                         "cannot repeat hosts that have rdma entries (the RDMA matrix has "
                         "one row and column per host)",
                         "run one rank per host with RDMA hostfiles");
  std::vector<Host> out;
  out.reserve(hosts.size() * static_cast<size_t>(n));
  for (const Host& h : hosts)
    for (int k = 0; k < n; ++k) out.push_back(h);
  return out;
}

std::vector<HostSlots> count_slots(const std::vector<Host>& ranks) {
  std::vector<HostSlots> out;
  std::map<std::string, size_t, std::less<>> index;
  for (const Host& h : ranks) {
    auto [it, inserted] = index.emplace(h.ssh, out.size());
    if (inserted) out.push_back({h.ssh, 0});
    ++out[it->second].slots;
  }
  return out;
}

}  // namespace distkit::hostfile
