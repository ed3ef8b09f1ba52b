// JSON text written the way Python writes it, for every file or variable a
// Python program (MLX, mlx.launch's readers) reads: strings exactly as
// Python's json.dumps escapes them (ensure_ascii), user values quoted inside
// one-line error messages, and a UTF-8 check. One writer for the hostfile
// and the launcher's JSON-valued rank variables.
#pragma once

#include <string>
#include <string_view>

namespace distkit {

// `s` as a JSON string literal the way Python's json.dumps writes it with
// ensure_ascii=True: \" \\ \b \f \n \r \t, every other character outside
// ' '..'~' as \uXXXX (lower-case hex, surrogate pairs above U+FFFF). Bytes
// that are not valid UTF-8 are written as \ufffd (never produced by parse()).
std::string json_string(std::string_view s);

// A JSON-quoted copy of `s` for error messages: always one line, cut to about
// 60 characters with "..." so a huge value cannot flood the terminal.
std::string quote(std::string_view s);

bool is_valid_utf8(std::string_view s);

// `s` with every byte that is not part of a valid UTF-8 sequence replaced
// by U+FFFD (the bytes json_string writes as \ufffd).
std::string valid_utf8(std::string_view s);

}  // namespace distkit
