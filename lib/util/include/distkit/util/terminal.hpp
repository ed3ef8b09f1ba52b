// Output policy shared by the tools: colour only on a TTY and never when
// NO_COLOR is set (https://no-color.org); plain text everywhere else.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace distkit {

bool is_tty(std::FILE* stream);

// Writes `text` and flushes: what a user or a pipe must see now. False
// when it could not (errno says why: EPIPE for a reader that has left).
bool write_now(std::FILE* stream, std::string_view text);

// True when `stream` is a TTY and NO_COLOR is unset or empty (per the
// NO_COLOR convention, any non-empty value disables colour).
bool use_color(std::FILE* stream);

enum class Color { red, yellow, green, bold, dim };

// Wraps `s` in the ANSI sequence for `c` when `enabled`, else returns it as is.
std::string colorize(std::string_view s, Color c, bool enabled);

}  // namespace distkit
