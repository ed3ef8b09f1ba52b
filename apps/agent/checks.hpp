// The preflight's checks on a host, run by the host agent for the
// launcher's first frame (P; distkit/launch/agent_protocol.hpp): the
// system and OS, that the command and the working directory exist, the
// python and mlx versions, the git commit, and which of the ranks' ports
// are already taken. The launcher takes every decision from the facts.
#pragma once

#include <string>

#include "distkit/launch/agent_frames.hpp"

namespace distkit_agent {

// The facts for `request` (P's pairs: cwd, cmd, python, git, ports), as
// F's pairs: system, os, and where asked cwd, cmd, python, mlx, git, busy.
// The programs it runs share kChecksTimeout seconds.
distkit::agent_frames::Pairs run_checks(const distkit::agent_frames::Pairs& request);

}  // namespace distkit_agent
