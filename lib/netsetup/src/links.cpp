// See links.hpp. The parser never trusts its input: every rejection is a
// one-line UsageError naming the file and line.
#include "distkit/netsetup/links.hpp"

#include <algorithm>
#include <map>

#include "distkit/util/error.hpp"
#include "distkit/util/strings.hpp"

namespace distkit::netsetup {

namespace {

constexpr const char* kFormat = "write one cable per line as hostA:ifA hostB:ifB";

bool valid_host_name(std::string_view h) {
  return !h.empty() && h.size() <= 253 && is_word(h, ".-@:[]");
}

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += (c >= 32 && c < 127) ? c : '?';
  if (s.size() > 40) out += "...";
  return out;
}

Endpoint parse_endpoint(const std::string& word, const std::string& where) {
  size_t colon = word.rfind(':');
  if (colon == std::string::npos)
    throw UsageError(where, "\"" + printable(word) + "\" has no ':' between host and interface",
                     kFormat);
  Endpoint e{word.substr(0, colon), word.substr(colon + 1)};
  if (!valid_host_name(e.host))
    throw UsageError(where, "\"" + printable(word) + "\" has no valid host name before ':'",
                     kFormat);
  if (!valid_iface_name(e.iface))
    throw UsageError(where, "\"" + printable(e.iface) + "\" is not an interface name",
                     "use 1 to 15 characters of letters, digits, '_', '.', '-'");
  return e;
}

}  // namespace

bool valid_iface_name(std::string_view n) {
  return !n.empty() && n.size() <= 15 && n != "." && n != ".." && is_word(n, ".-");
}

std::vector<Cable> parse_links(std::string_view text, std::string_view source) {
  std::vector<Cable> out;
  std::map<Endpoint, int> used;  // endpoint -> line
  int line_no = 0;
  // Windows editors start a UTF-8 file with a byte order mark; the hostfile
  // (JSON) reader skips it too.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  for (std::string_view line : split_lines(text)) {
    ++line_no;
    std::string where = std::string(source) + ":" + std::to_string(line_no);
    auto w = split_words(line.substr(0, line.find('#')));
    if (w.empty()) continue;
    if (w.size() != 2)
      throw UsageError(where, "expected 2 endpoints, found " + std::to_string(w.size()), kFormat);
    Cable c{parse_endpoint(w[0], where), parse_endpoint(w[1], where)};
    if (c.a.host == c.b.host)
      throw UsageError(where, "cable from " + c.a.host + " to itself",
                       "a cable joins two different hosts");
    for (const Endpoint* e : {&c.a, &c.b}) {
      auto [it, fresh] = used.emplace(*e, line_no);
      if (!fresh)
        throw UsageError(where,
                         e->str() + " is already cabled on line " + std::to_string(it->second),
                         "an interface carries one cable");
    }
    out.push_back(std::move(c));
  }
  if (out.empty()) throw UsageError(std::string(source), "declares no cable", kFormat);
  return out;
}

void check_link_hosts(const std::vector<Cable>& cables, const std::vector<std::string>& hosts,
                      std::string_view source) {
  for (const auto& c : cables)
    for (const Endpoint* e : {&c.a, &c.b})
      if (std::find(hosts.begin(), hosts.end(), e->host) == hosts.end())
        throw UsageError(std::string(source), "host \"" + e->host + "\" is not in the host list",
                         did_you_mean(e->host, hosts, "add it to --hosts or fix the links file"));
}

}  // namespace distkit::netsetup
