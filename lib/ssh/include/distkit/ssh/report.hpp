// Turning a command's outcome on one host into the one-line message the
// tools print (`<host>: <what>: <problem>; <remedy>`), so every tool reports
// "command not found", timeouts, signals and lost connections alike.
#pragma once

#include <optional>
#include <string>

#include "distkit/ssh/executor.hpp"

namespace distkit::ssh {

// nullopt when the command succeeded; else one line (no newline). `what`
// names the step for the user ("probe", "rank 3"). The last non-empty line
// of stderr, when there is one, is quoted as the detail.
std::optional<std::string> describe_failure(const std::string& host, const std::string& what,
                                            const CommandResult& result);

}  // namespace distkit::ssh
