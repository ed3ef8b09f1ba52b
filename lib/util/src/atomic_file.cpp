// See atomic_file.hpp. POSIX calls only (macOS and Linux).
#include "distkit/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "distkit/util/error.hpp"
#include "distkit/util/posix.hpp"

namespace distkit {

namespace {
[[noreturn]] void fail(const std::filesystem::path& p, const std::string& what, int err) {
  throw Error(p.string(), what + ": " + std::strerror(err),
              "check that the directory exists and is writable");
}
}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view content, unsigned mode) {
  std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) fail(path, "cannot create a temporary file", errno);
  // Removes the temporary file, then throws `what` with `err`'s reason.
  auto give_up = [&](const std::string& what, int err) {
    ::unlink(tmpl.c_str());
    fail(path, what, err);
  };
  auto cleanup = [&](int err) {
    ::close(fd);
    give_up("cannot write", err);
  };
  if (::fchmod(fd, static_cast<mode_t>(mode)) != 0) cleanup(errno);
  if (!posix::write_all(fd, content)) cleanup(errno);
  if (::fsync(fd) != 0) cleanup(errno);
  if (::close(fd) != 0) give_up("cannot write", errno);
  if (::rename(tmpl.c_str(), path.c_str()) != 0) give_up("cannot rename into place", errno);
}

std::string read_file(const std::filesystem::path& path, size_t max_bytes) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw UsageError(path.string(), "no such file", "check the path");
  if (std::filesystem::is_directory(status))
    throw UsageError(path.string(), "is a directory, not a file", "give a file path");
  const auto too_large = [&] {
    return UsageError(path.string(), "larger than " + std::to_string(max_bytes >> 20) + " MiB",
                      "give the right file");
  };
  // A regular file's size is known: refuse before reading a byte of it. The
  // loop below still bounds what pipes and devices (/dev/stdin) can feed.
  if (std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes) throw too_large();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UsageError(path.string(), "cannot open: " + std::string(std::strerror(errno)),
                     "check the file's permissions");
  std::string data;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    data.append(buf, static_cast<size_t>(in.gcount()));
    if (data.size() > max_bytes) throw too_large();
  }
  return data;
}

}  // namespace distkit
