# Shared by tests/integration/launch_*.sh (sourced, POSIX sh): the built
# distlaunch, a test cluster in a temp dir that is always torn down, process
# counting per host (through each host's own PID namespace), assertions.
set -eu

SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}
DL="$BUILD/apps/distlaunch"
CLUSTER="$SRC/scripts/testcluster.sh"
DATA="$SRC/tests/data/launch"
[ -x "$DL" ] || { echo "SKIP: $DL not built (cmake --build ... --target distlaunch)"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-launch-test.XXXXXX")
C="$WORK/cluster"
NHOSTS=0
cleanup() {
  [ "$NHOSTS" -gt 0 ] && "$CLUSTER" down "$C" >/dev/null 2>&1
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
  NHOSTS=$1
}

# host_list N: h1,h2,...,hN
host_list() {
  i=1 out=h1
  while [ $i -lt "$1" ]; do i=$((i + 1)); out="$out,h$i"; done
  echo "$out"
}

# dl ARGS...: distlaunch against the test cluster (in the background, call
# "$DL" itself so $! is its pid).
dl() { "$DL" --ssh-config "$C/ssh_config" "$@"; }

# count_procs PATTERN: processes matching PATTERN (full command line) on all
# hosts, each counted inside its host's PID namespace.
count_procs() {
  total=0 k=1
  while [ $k -le "$NHOSTS" ]; do
    n=$("$CLUSTER" exec "$C" "$k" -- pgrep -c -f "$1" || true)
    total=$((total + n)); k=$((k + 1))
  done
  echo "$total"
}

# wait_procs PATTERN WANT SECONDS: until count_procs gives WANT (or time out).
wait_procs() {
  t=0
  while [ "$(count_procs "$1")" != "$2" ] && [ $t -lt $(($3 * 10)) ]; do
    sleep 0.1; t=$((t + 1))
  done
  count_procs "$1"
}

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }
expect_line() {
  grep -qxF -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "missing line: $2"; }
}
now_ms() { date +%s%3N; }
