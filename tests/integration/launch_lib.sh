# Shared by tests/integration/launch_*.sh, hostile_*.sh, chaos_*.sh and
# load_*.sh (sourced, POSIX sh): the built distlaunch on top of the test
# cluster plumbing of cluster_lib.sh.
CLUSTER_PREFIX=${CLUSTER_PREFIX:-distkit-launch-test}
. "$(dirname "$0")/cluster_lib.sh"
DL="$BUILD/apps/distlaunch"
DATA="$SRC/tests/data/launch"
[ -x "$DL" ] || { echo "SKIP: $DL not built (cmake --build ... --target distlaunch)"; exit 77; }

# Processes whose command line names a rank's command while `sh -c CMD`
# runs: the perl wrapper (templates/launch_rank.pl), sh and CMD; where the
# hosts (this machine) have no perl, the sh wrapper with its stdin reader
# and watchdog, sh and CMD.
if command -v perl >/dev/null 2>&1; then PER_RANK=3; else PER_RANK=5; fi

# dl ARGS...: distlaunch against the test cluster (in the background, call
# "$DL" itself so $! is its pid).
dl() { "$DL" --ssh-config "$C/ssh_config" "$@"; }
