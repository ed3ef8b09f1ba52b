# Shared by tests/integration/ssh_*.sh (sourced, POSIX sh): the test-cluster
# plumbing of cluster_lib.sh, and the ssh_tool test program (built with the
# unit tests of lib/ssh) that these tests drive.
CLUSTER_PREFIX=distkit-ssh-test
. "$(dirname "$0")/cluster_lib.sh"
TOOL="$BUILD/tests/unit/ssh/ssh_tool"
[ -x "$TOOL" ] || { echo "SKIP: $TOOL not built (cmake --build ... --target ssh_tool)"; exit 77; }
