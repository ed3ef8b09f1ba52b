// Where the running program's executable is, so a tool can name programs
// installed beside it (distlaunch looks for distkit-agent there on hosts
// installed the same way).
#pragma once

#include <optional>
#include <string>

namespace distkit {

// The directory of the running executable (symlinks resolved), or nothing
// where the OS does not tell.
std::optional<std::string> executable_dir();

}  // namespace distkit
