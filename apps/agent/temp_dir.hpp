// The rank's private temp dir:
// "$TMPDIR/distlaunch.XXXXXXXX", mode 0700, with an "owner" file naming this
// host (plus its PID namespace where the OS shows it) and the agent's pid, so
// a later agent of the same host can remove the dirs of agents killed by
// SIGKILL.
#pragma once

#include <string>

namespace distkit_agent {

// "<hostname>" or, on Linux, "<hostname>/pid:[<inode>]".
std::string owner_name(const std::string& host);

// Removes the dirs under `tmp` whose owner is `owner` and whose pid is gone
// (ESRCH only: EPERM means it lives under another user).
void remove_stale_dirs(const std::string& tmp, const std::string& owner);

// Creates the dir and its owner file; "" on failure.
std::string make_temp_dir(const std::string& tmp, const std::string& owner);

// rm -rf without following symlinks.
void remove_tree(const std::string& path);

// Writes `content` to `path` (created with `mode`, subject to umask).
bool write_file(const std::string& path, const std::string& content, int mode);

}  // namespace distkit_agent
