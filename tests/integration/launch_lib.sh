# Shared by tests/integration/launch_*.sh, hostile_*.sh, chaos_*.sh and
# load_*.sh (sourced, POSIX sh): the built distlaunch on top of the test
# cluster plumbing of cluster_lib.sh.
CLUSTER_PREFIX=${CLUSTER_PREFIX:-distkit-launch-test}
. "$(dirname "$0")/cluster_lib.sh"
DL="$BUILD/apps/distlaunch"
# shellcheck disable=SC2034 # used by the scripts that source this file
DATA="$SRC/tests/data/launch"
[ -x "$DL" ] || { echo "SKIP: $DL not built (cmake --build ... --target distlaunch)"; exit 77; }

# Processes whose command line names a rank's command while `sh -c CMD`
# runs on a host with distkit-agent (the test hosts share this build):
# sh and CMD. The host agent carries its own command line
# (AGENT_PATTERN), not the rank's.
# shellcheck disable=SC2034 # used by the scripts that source this file
PER_RANK=2
# shellcheck disable=SC2034 # used by the scripts that source this file
AGENT_PATTERN='[-]-host-agent'

# The launcher <-> agent protocol number, from its one definition.
# shellcheck disable=SC2034 # used by the scripts that source this file
PROTOCOL=$(sed -n 's/^inline constexpr int kAgentProtocol = \([0-9]*\);$/\1/p' \
  "$SRC/lib/launch/include/distkit/launch/agent_protocol.hpp")

# dl ARGS...: distlaunch against the test cluster (in the background, call
# "$DL" itself so $! is its pid).
dl() { "$DL" --ssh-config "$C/ssh_config" "$@"; }
