// Text helpers private to the hostfile library: writing JSON strings exactly
// as Python's json module does (ensure_ascii), quoting user values inside
// one-line error messages, and checking UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace distkit::hostfile::detail {

// Appends `s` as a JSON string literal the way Python's json.dumps writes it
// with ensure_ascii=True: \" \\ \b \f \n \r \t, every other character outside
// ' '..'~' as \uXXXX (lower-case hex, surrogate pairs above U+FFFF). Bytes
// that are not valid UTF-8 are written as \ufffd (never produced by parse()).
void append_json_string(std::string& out, std::string_view s);

// A JSON-quoted copy of `s` for error messages: always one line, cut to about
// 60 characters with "..." so a huge value cannot flood the terminal.
std::string quote(std::string_view s);

bool is_valid_utf8(std::string_view s);

}  // namespace distkit::hostfile::detail
