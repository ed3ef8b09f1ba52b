# Shared test-cluster plumbing for the integration tests (sourced, POSIX sh):
# a private temp dir, a test cluster inside it (scripts/testcluster.sh, named
# per dir so concurrent tests never collide) that is always torn down, per
# host process counting through each host's own PID namespace, assertions.
#
# Use: set CLUSTER_PREFIX (temp dir name, default "distkit-test") and
# optionally define cluster_extra_cleanup() (run first at exit) and
# cluster_after_up() (run once the hosts are up); then
#   cluster_up N        bring up h1..hN in $C (exits 77 where unsupported)
#   host_list N         h1,h2,...,hN
#   on_host K CMD...    run CMD inside host K's namespaces
#   count_procs PAT     processes matching PAT (full command line), all hosts
#   wait_procs PAT N S  until count_procs PAT gives N, at most S seconds
# Sets SRC, BUILD, CLUSTER, WORK, C, NHOSTS.
set -eu

SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
# shellcheck disable=SC2034 # used by the scripts that source this file
BUILD=${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}
CLUSTER="$SRC/scripts/testcluster.sh"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/${CLUSTER_PREFIX:-distkit-test}.XXXXXX")
C="$WORK/cluster"
NHOSTS=0
STARTED=0
cluster_cleanup() {
  if command -v cluster_extra_cleanup >/dev/null 2>&1; then cluster_extra_cleanup || true; fi
  # Also after a failed `up`: it may have created part of the cluster.
  [ "$STARTED" = 1 ] && "$CLUSTER" down "$C" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cluster_cleanup EXIT
trap 'exit 130' INT TERM

# cluster_up N: skips the test (77) where namespaces are unavailable.
cluster_up() {
  rc=0
  STARTED=1
  "$CLUSTER" up "$1" "$C" 2>"$WORK/up.log" || rc=$?
  if [ "$rc" = 77 ]; then echo "SKIP: $(cat "$WORK/up.log")"; exit 77; fi
  [ "$rc" = 0 ] || { cat "$WORK/up.log"; exit 1; }
  NHOSTS=$1
  if command -v cluster_after_up >/dev/null 2>&1; then cluster_after_up; fi
}

host_list() {
  i=1 out=h1
  while [ $i -lt "$1" ]; do i=$((i + 1)); out="$out,h$i"; done
  echo "$out"
}

on_host() {
  k=$1
  shift
  "$CLUSTER" exec "$C" "$k" -- "$@"
}

count_procs() {
  total=0 k=1
  while [ $k -le "$NHOSTS" ]; do
    n=$("$CLUSTER" exec "$C" "$k" -- pgrep -c -f "$1" || true)
    total=$((total + n)); k=$((k + 1))
  done
  echo "$total"
}

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
