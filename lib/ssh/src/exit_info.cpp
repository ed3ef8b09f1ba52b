// ExitInfo's shell-style status, shared by every executor.
#include "distkit/ssh/executor.hpp"

namespace distkit::ssh {

int ExitInfo::shell_status() const {
  if (!error.empty()) return 255;  // as ssh(1) reports a transport failure
  if (signal > 0) return 128 + signal;
  return exit_status;
}

}  // namespace distkit::ssh
