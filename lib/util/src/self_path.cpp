#include "distkit/util/self_path.hpp"

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
  size_t at = 0;
  while (true) {
    size_t colon = path.find(':', at);
    std::string_view dir = path.substr(at, colon == std::string_view::npos ? colon : colon - at);
    std::filesystem::path candidate(dir.empty() ? std::string(".") : std::string(dir));
    if (auto found = executable_file(candidate / std::string(name))) return found;
    if (colon == std::string_view::npos) return std::nullopt;
    at = colon + 1;
  }
}

std::string path_env() {
  const char* path = std::getenv("PATH");
  return path ? path : "/usr/bin:/bin";
}

}  // namespace distkit
