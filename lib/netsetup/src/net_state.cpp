// See net_state.hpp. Lines that do not parse are skipped: a host printing
// something unexpected must not stop the plan, only lose that entry.
#include "distkit/netsetup/net_state.hpp"

#include "distkit/probe/netif.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::netsetup {

namespace {

// macOS netstat abbreviates networks: "192.168.1" is 192.168.1.0/24,
// "127" 127.0.0.0/8, "10.213.0.0/30" explicit, "10.213.0.2" a host.
std::optional<Cidr> netstat_dest(std::string d) {
  if (d == "default") return Cidr{0, 0};
  d = d.substr(0, d.find('%'));
  size_t slash = d.find('/');
  std::string full = d.substr(0, slash);
  int octets = 1;
  for (char c : full) octets += c == '.';
  if (octets > 4) return std::nullopt;
  for (int i = octets; i < 4; ++i) full += ".0";
  auto a = parse_ipv4(full);
  if (!a) return std::nullopt;
  if (slash == std::string::npos) return Cidr{*a, octets * 8};
  return parse_cidr(full + d.substr(slash));
}

}  // namespace

bool HostNet::ours(const AddressEntry& a) const {
  for (const auto& r : records)
    if (r.kind == "addr" && r.args.size() == 2 && r.args[0] == a.iface && r.args[1] == a.cidr.str())
      return true;
  return false;
}

bool HostNet::ours(const RouteEntry& rt) const {
  for (const auto& r : records) {
    if (r.kind != "addr" || r.args.size() != 2 || r.args[0] != rt.iface) continue;
    auto c = parse_cidr(r.args[1]);
    if (c && c->contains(rt.dest.network()) && rt.dest.prefix >= c->prefix) return true;
  }
  return false;
}

std::vector<AddressEntry> parse_ip_addr_cidrs(std::string_view text) {
  std::vector<AddressEntry> out;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (w.size() < 4 || w[2] != "inet") continue;
    std::string name = w[1];
    if (!name.empty() && name.back() == ':') name.pop_back();
    name = name.substr(0, name.find('@'));
    if (auto c = parse_cidr(w[3])) out.push_back({name, *c});
  }
  return out;
}

std::vector<AddressEntry> parse_ifconfig_cidrs(std::string_view text) {
  std::vector<AddressEntry> out;
  std::string cur;
  for (std::string_view line : split_lines(text)) {
    if (probe::is_ifconfig_header(line)) {
      cur = std::string(line.substr(0, line.find(':')));
      continue;
    }
    auto w = split_words(line);
    if (cur.empty() || w.size() < 2 || w[0] != "inet") continue;
    std::string a = w[1].rfind("addr:", 0) == 0 ? w[1].substr(5) : w[1];
    auto c = parse_cidr(a);
    if (!c) continue;
    // "netmask 0xffffff00" (macOS, new net-tools) or "Mask:255.255.255.0" (old net-tools).
    for (size_t i = 2; i < w.size(); ++i) {
      std::optional<int> p;
      if (w[i] == "netmask" && i + 1 < w.size()) p = netmask_prefix(w[i + 1]);
      if (w[i].starts_with("Mask:")) p = netmask_prefix(std::string_view(w[i]).substr(5));
      if (p) c->prefix = *p;
    }
    out.push_back({cur, *c});
  }
  return out;
}

std::vector<RouteEntry> parse_ip_routes(std::string_view text) {
  std::vector<RouteEntry> out;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (w.empty()) continue;
    size_t i = 0;
    // "unicast 10.0.0.0/8 ...", "local ..." and friends: a type first.
    if (w[0] == "unicast" || w[0] == "local" || w[0] == "broadcast" || w[0] == "blackhole" ||
        w[0] == "unreachable" || w[0] == "prohibit")
      i = 1;
    if (i >= w.size()) continue;
    std::optional<Cidr> dest =
        w[i] == "default" ? std::optional<Cidr>(Cidr{0, 0}) : parse_cidr(w[i]);
    if (!dest) continue;
    RouteEntry r{"", *dest};
    for (size_t k = i + 1; k + 1 < w.size(); ++k)
      if (w[k] == "dev") r.iface = w[k + 1];
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RouteEntry> parse_netstat_routes(std::string_view text) {
  std::vector<RouteEntry> out;
  int netif_col = -1;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (w.empty()) continue;
    if (w[0] == "Destination") {
      netif_col = -1;
      for (size_t i = 0; i < w.size(); ++i)
        if (w[i] == "Netif") netif_col = int(i);
      continue;
    }
    if (netif_col < 0 || int(w.size()) <= netif_col) continue;
    auto d = netstat_dest(w[0]);
    if (!d) continue;
    out.push_back({w[size_t(netif_col)], *d});
  }
  return out;
}

std::vector<StateRecord> parse_state_records(std::string_view text) {
  std::vector<StateRecord> out;
  constexpr std::string_view kLocation = "location ";
  for (std::string_view line : split_lines(text)) {
    if (line.rfind(kLocation, 0) == 0) {  // the rest of the line, spaces and all
      if (line.size() > kLocation.size())
        out.push_back({"location", {std::string(line.substr(kLocation.size()))}});
      continue;
    }
    auto w = split_words(line);
    if (w.empty()) continue;
    const std::string& k = w[0];
    size_t want = k == "addr" || k == "route" || k == "bridgeout"        ? 2
                  : k == "bridgedown" || k == "linkup" || k == "persist" ? 1
                                                                         : 0;
    if (want == 0 || w.size() != want + 1) continue;
    out.push_back({k, std::vector<std::string>(w.begin() + 1, w.end())});
  }
  return out;
}

}  // namespace distkit::netsetup
