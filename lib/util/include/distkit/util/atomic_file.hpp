// Writing output files so that a reader never sees half a file: write to a
// temporary file in the same directory, fsync, then rename over the target.
// An interrupted run leaves either the old file or the new one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "distkit/util/error.hpp"

namespace distkit {

// Throws distkit::Error (subject = path) on any failure; the temporary file
// is removed. `mode` is applied before the rename (e.g. 0600 for secrets).
void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       unsigned mode = 0644);

// Reads a whole file; throws UsageError naming the path when it is missing or
// unreadable, and when it is larger than `max_bytes`.
std::string read_file(const std::filesystem::path& path, size_t max_bytes = size_t(64) << 20);

// Creates `dir` and its parents; else throws E(dir, "cannot create the <what> (<reason>)", remedy).
template <typename E = Error>
void make_directory(const std::filesystem::path& dir, const std::string& what,
                    const std::string& remedy) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw E(dir.string(), "cannot create the " + what + " (" + ec.message() + ")", remedy);
}

}  // namespace distkit
