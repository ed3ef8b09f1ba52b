#include "distkit/util/self_path.hpp"

#include <cstdint>
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

}  // namespace distkit
