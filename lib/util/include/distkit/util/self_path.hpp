// Where programs are: the running program's executable, so a tool can name
// programs installed beside it (distlaunch looks for distkit-agent there on
// hosts installed the same way), and a command found through PATH.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace distkit {

// The directory of the running executable (symlinks resolved), or nothing
// where the OS does not tell.
std::optional<std::string> executable_dir();

// The absolute path of the first executable regular file `name` in the
// directories of `path` (a PATH value; an empty entry is the current
// directory), as execvp would find it; symlinks are not resolved (as
// Python's sys.executable). `name` with a '/' is taken as is, made
// absolute. Nothing when none is found.
std::optional<std::string> find_on_path(std::string_view name, std::string_view path);

// This process's PATH, or "/usr/bin:/bin" when it has none.
std::string path_env();

}  // namespace distkit
