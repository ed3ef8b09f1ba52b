#include "distkit/util/self_path.hpp"

#include "distkit/util/strings.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <vector>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

namespace distkit {

std::optional<std::string> executable_dir() {
  std::error_code ec;
#if defined(__APPLE__)
  uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);
  std::vector<char> buf(size + 1, '\0');
  if (_NSGetExecutablePath(buf.data(), &size) != 0) return std::nullopt;
  auto exe = std::filesystem::canonical(buf.data(), ec);
#else
  auto exe = std::filesystem::canonical("/proc/self/exe", ec);
#endif
  if (ec || exe.empty()) return std::nullopt;
  return exe.parent_path().string();
}

namespace {

std::optional<std::string> executable_file(const std::filesystem::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || ::access(p.c_str(), X_OK) != 0)
    return std::nullopt;
  std::error_code ec;
  auto abs = std::filesystem::absolute(p, ec);
  if (ec) return std::nullopt;
  return abs.lexically_normal().string();
}

}  // namespace

std::optional<std::string> find_on_path(std::string_view name, std::string_view path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string_view::npos) return executable_file(std::string(name));
  for (const auto& dir : split(path, ':'))  // an empty entry is the current directory
    if (auto found = executable_file(std::filesystem::path(dir.empty() ? "." : dir) / name))
      return found;
  return std::nullopt;
}

std::string path_env() {
  const char* path = std::getenv("PATH");
  return path ? path : "/usr/bin:/bin";
}

}  // namespace distkit
