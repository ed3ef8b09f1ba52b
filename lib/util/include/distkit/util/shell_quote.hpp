// POSIX shell quoting: the one function every generated shell word goes
// through (remote launch scripts, setup scripts, probe invocations). Works for
// /bin/sh, bash 3.2 (macOS), zsh and dash alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace distkit {

// Returns `s` unchanged when it consists only of characters that are never
// special to a POSIX shell ([A-Za-z0-9_@%+=:,./-], non-empty); otherwise
// wraps it in single quotes, writing each embedded ' as '\''.
std::string shell_quote(std::string_view s);

// Quotes each word and joins them with single spaces.
std::string shell_join(const std::vector<std::string>& words);

}  // namespace distkit
