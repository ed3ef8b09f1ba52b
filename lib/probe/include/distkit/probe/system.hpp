// Parsing what a host says about itself: `sw_vers` (macOS), /etc/os-release
// (Linux), `uname -srm`, and one-line version outputs (python3, mlx).
#pragma once

#include <string>
#include <string_view>

namespace distkit::probe {

struct OsVersion {
  std::string name;     // "macOS", "Debian GNU/Linux"
  std::string version;  // "26.2", "12"
  std::string build;    // "25C56" (macOS only)
};

// "ProductName:\t\tmacOS" / "ProductVersion:\t\t26.2" / "BuildVersion:\t\t25C56".
OsVersion parse_sw_vers(std::string_view text);
// NAME= and VERSION_ID= of /etc/os-release (quotes removed).
OsVersion parse_os_release(std::string_view text);

struct Uname {
  std::string kernel;  // "Darwin", "Linux"
};
// The output of `uname -srm` (its first word).
Uname parse_uname(std::string_view text);

// The first non-empty line, trimmed, with a leading "Python " removed:
// "Python 3.12.1" -> "3.12.1". Empty for empty input.
std::string parse_version_line(std::string_view text);

}  // namespace distkit::probe
