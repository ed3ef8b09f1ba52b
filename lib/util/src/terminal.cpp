// See terminal.hpp.
#include "distkit/util/terminal.hpp"

#include <unistd.h>

#include <cstdlib>

namespace distkit {

bool is_tty(std::FILE* stream) {
  return ::isatty(::fileno(stream)) == 1;
}

bool write_now(std::FILE* stream, std::string_view text) {
  const bool written = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  return std::fflush(stream) == 0 && written;
}

bool use_color(std::FILE* stream) {
  const char* nc = std::getenv("NO_COLOR");
  if (nc != nullptr && *nc != '\0') return false;
  return is_tty(stream);
}

std::string colorize(std::string_view s, Color c, bool enabled) {
  if (!enabled) return std::string(s);
  // Indexed by Color (declaration order in terminal.hpp).
  constexpr const char* kCodes[] = {"\033[31m", "\033[33m", "\033[32m", "\033[1m", "\033[2m"};
  return kCodes[static_cast<size_t>(c)] + std::string(s) + "\033[0m";
}

}  // namespace distkit
