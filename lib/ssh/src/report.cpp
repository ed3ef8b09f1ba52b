// describe_failure (see report.hpp).
#include "distkit/ssh/report.hpp"

#include "distkit/util/strings.hpp"

namespace distkit::ssh {
namespace {

std::string last_line(const std::string& text) {
  auto lines = split_lines(text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (!trim(*it).empty()) return std::string(trim(*it));
  return {};
}

std::string with_detail(const std::string& line, const std::string& detail) {
  return detail.empty() ? line : line + " (" + detail + ")";
}

}  // namespace

std::optional<std::string> describe_failure(const std::string& host, const std::string& what,
                                            const CommandResult& r) {
  if (r.exit.ok()) return std::nullopt;
  const std::string head = host + ": " + what + ": ";
  const std::string detail = last_line(r.err);
  const auto& e = r.exit;
  if (!e.error.empty()) {
    if (e.error.rfind("timed out", 0) == 0)
      return head + e.error + "; raise the timeout or check what the host is doing";
    return head + e.error + "; check the host and its network link, then rerun";
  }
  if (e.signal > 0)
    return with_detail(head + "killed by signal " + std::to_string(e.signal), detail) +
           "; check the host's logs (out of memory?)";
  if (e.exit_status == 127)
    return with_detail(head + "command not found (exit 127)", detail) +
           "; install it on that host or give its full path (SSH sessions do not read shell "
           "profiles)";
  if (e.exit_status == 126)
    return with_detail(head + "command not executable (exit 126)", detail) +
           "; check its permissions on that host";
  return with_detail(head + "exited with status " + std::to_string(e.exit_status), detail);
}

}  // namespace distkit::ssh
