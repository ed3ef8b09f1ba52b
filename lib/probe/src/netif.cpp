// See netif.hpp.
#include "distkit/probe/netif.hpp"

#include <algorithm>

#include "distkit/util/strings.hpp"

namespace distkit::probe {

namespace {

// "addr:10.0.0.1" (old net-tools) -> "10.0.0.1"; "fe80::1%en2" -> "fe80::1";
// "10.0.0.1/24" -> "10.0.0.1".
std::string clean_address(std::string a) {
  if (a.rfind("addr:", 0) == 0) a = a.substr(5);
  size_t cut = a.find_first_of("%/");
  if (cut != std::string::npos) a.resize(cut);
  return a;
}

}  // namespace

bool is_ifconfig_header(std::string_view line) {
  if (line.empty() || line[0] == ' ' || line[0] == '\t') return false;
  size_t colon = line.find(':');
  return colon != std::string_view::npos && colon > 0 && line.find(' ') > colon;
}

std::vector<Interface> parse_ifconfig(std::string_view text) {
  std::vector<Interface> out;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (is_ifconfig_header(line)) {
      out.push_back({std::string(line.substr(0, line.find(':'))), {}, {}, ""});
      continue;
    }
    if (out.empty() || w.size() < 2) continue;
    Interface& cur = out.back();
    if (w[0] == "inet")
      cur.ipv4.push_back(clean_address(w[1]));
    else if (w[0] == "member:")
      cur.members.push_back(w[1]);
    else if (w[0] == "status:")
      cur.status = w[1];
  }
  return out;
}

std::vector<Interface> parse_ip_addr(std::string_view text) {
  std::vector<Interface> out;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    // "1: lo    inet 127.0.0.1/8 scope host lo\ ..."
    if (w.size() < 4) continue;
    std::string name = w[1];
    if (!name.empty() && name.back() == ':') name.pop_back();
    size_t at = name.find('@');
    if (at != std::string::npos) name.resize(at);
    auto cur = std::ranges::find(out, name, &Interface::name);
    if (cur == out.end()) cur = out.insert(out.end(), Interface{name, {}, {}, ""});
    if (w[2] == "inet") cur->ipv4.push_back(clean_address(w[3]));
  }
  return out;
}

std::optional<Route> parse_route_get(std::string_view text) {
  Route r;
  for (std::string_view line : split_lines(text)) {
    auto w = split_words(line);
    if (w.size() >= 2 && w[0] == "interface:") r.interface = w[1];
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "dev" && r.interface.empty()) r.interface = w[i + 1];
      if (w[i] == "src" && r.source.empty()) r.source = clean_address(w[i + 1]);
    }
  }
  if (r.interface.empty()) return std::nullopt;
  return r;
}

const Interface* find_interface(const std::vector<Interface>& ifs, std::string_view name) {
  auto it = std::ranges::find(ifs, name, &Interface::name);
  return it == ifs.end() ? nullptr : &*it;
}

}  // namespace distkit::probe
