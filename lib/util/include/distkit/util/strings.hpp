// Small string helpers used by parsers and renderers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace distkit {

std::string_view trim(std::string_view s);
// `s` in lower case (std::tolower): names matched case-insensitively.
std::string lower(std::string_view s);
// Splits on `sep`; keeps empty fields ("a,,b" -> {"a","","b"}).
std::vector<std::string> split(std::string_view s, char sep);
// Splits on runs of spaces and tabs; no empty words ("  a\tb " -> {"a","b"}).
std::vector<std::string> split_words(std::string_view s);
// Splits into lines, accepting \n and \r\n; no trailing empty line.
std::vector<std::string_view> split_lines(std::string_view s);
// The first line with more than blanks, trimmed ("" when none): what a
// command's error output says first.
std::string first_line(std::string_view s);
// The last line with more than blanks, trimmed ("" when none): where a
// command that failed says why (sbatch, ssh).
std::string last_line(std::string_view s);
// Whether every character of `s` is an ASCII letter, a digit, '_' or one
// of `extra` (true for ""): a variable's name, with ".-" an interface's.
bool is_word(std::string_view s, std::string_view extra = "");
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "2.4 s": a duration for people, to a tenth of a second.
std::string seconds_text(double seconds);
// "line L, column C" (from 1, columns in bytes) of a byte offset into `text`.
std::string line_column(std::string_view text, size_t offset);
// The remedy for an unknown name: `did you mean "<closest>"?` when a
// candidate is within 2 edits of `word`, else `otherwise`.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates,
                         std::string otherwise);

}  // namespace distkit
