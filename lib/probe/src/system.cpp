// See system.hpp.
#include "distkit/probe/system.hpp"

#include "distkit/util/strings.hpp"

namespace distkit::probe {

namespace {

// "Key:\t\tvalue" or "KEY=value": the value (unquoted) into `out` when `line` sets `key`.
bool take(std::string_view line, std::string_view key, char sep, std::string& out) {
  if (line.substr(0, key.size()) != key || line.size() <= key.size() || line[key.size()] != sep)
    return false;
  std::string_view v = trim(line.substr(key.size() + 1));
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front())
    v = v.substr(1, v.size() - 2);
  out = std::string(v);
  return true;
}

}  // namespace

OsVersion parse_sw_vers(std::string_view text) {
  OsVersion v;
  for (std::string_view line : split_lines(text)) {
    take(line, "ProductName", ':', v.name) || take(line, "ProductVersion", ':', v.version) ||
        take(line, "BuildVersion", ':', v.build);
  }
  return v;
}

OsVersion parse_os_release(std::string_view text) {
  OsVersion v;
  for (std::string_view line : split_lines(text)) {
    take(line, "NAME", '=', v.name) || take(line, "VERSION_ID", '=', v.version);
  }
  return v;
}

Uname parse_uname(std::string_view text) {
  auto lines = split_lines(text);
  if (lines.empty()) return {};
  std::string_view line = trim(lines[0]);
  return {std::string(line.substr(0, line.find(' ')))};
}

std::string parse_version_line(std::string_view text) {
  std::string t = first_line(text);
  if (t.starts_with("Python ")) t.erase(0, 7);
  return t;
}

}  // namespace distkit::probe
