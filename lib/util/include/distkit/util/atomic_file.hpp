// Writing output files so that a reader never sees half a file: write to a
// temporary file in the same directory, fsync, then rename over the target.
// An interrupted run leaves either the old file or the new one.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace distkit {

// Throws distkit::Error (subject = path) on any failure; the temporary file
// is removed. `mode` is applied before the rename (e.g. 0600 for secrets).
void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       unsigned mode = 0644);

// Reads a whole file; throws UsageError naming the path when it is missing or
// unreadable, and when it is larger than `max_bytes`.
std::string read_file(const std::filesystem::path& path, size_t max_bytes = size_t(64) << 20);

}  // namespace distkit
