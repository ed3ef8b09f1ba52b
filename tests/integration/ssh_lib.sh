# Shared by tests/integration/ssh_*.sh (sourced, POSIX sh): bring up a test
# cluster in a temp dir, always tear it down, and small assertions.
# Needs DISTKIT_BUILD_DIR (set by ctest) with tests/unit/ssh/ssh_tool built.
set -eu

SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}
TOOL="$BUILD/tests/unit/ssh/ssh_tool"
CLUSTER="$SRC/scripts/testcluster.sh"
[ -x "$TOOL" ] || { echo "SKIP: $TOOL not built (cmake --build ... --target ssh_tool)"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-ssh-test.XXXXXX")
C="$WORK/cluster"
cleanup() {
  "$CLUSTER" down "$C" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# cluster_up N: skips the test (77) where namespaces are unavailable.
cluster_up() {
  rc=0
  "$CLUSTER" up "$1" "$C" 2>"$WORK/up.log" || rc=$?
  if [ "$rc" = 77 ]; then echo "SKIP: $(cat "$WORK/up.log")"; exit 77; fi
  [ "$rc" = 0 ] || { cat "$WORK/up.log"; exit 1; }
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_line FILE LINE: FILE has exactly that line.
expect_line() {
  grep -qxF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "missing line: $2"; }
}

# now_ms: wall clock in milliseconds (GNU date; the tests run on Linux).
now_ms() { date +%s%3N; }
