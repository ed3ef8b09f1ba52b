# Shared helpers for the distconfig integration tests (sourced, POSIX sh).
# Each test brings up its own test cluster (scripts/testcluster.sh) in a
# temporary directory and always tears it down. Mac commands on the test
# hosts are answered by the cluster's shims from the shared scenario
# captures (tests/data/scenarios), one scenario host per test host.
set -eu
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:-$SRC/build}
DISTCONFIG=$BUILD/apps/distconfig
TC=$SRC/scripts/testcluster.sh
SCEN=$SRC/tests/data/scenarios

[ -x "$DISTCONFIG" ] || { echo "skipped: $DISTCONFIG not built" >&2; exit 77; }

fail() { echo "FAIL: $*" >&2; exit 1; }

# cluster_up N: sets CL (cluster dir) and WORK (scratch dir); exits 77 when
# the machine cannot host a test cluster.
cluster_up() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/distconfig-it.XXXXXX")
  CL=$WORK/cluster
  trap 'bash "$TC" down "$CL" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT INT TERM
  set +e
  bash "$TC" up "$1" "$CL" >"$WORK/up.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" = 77 ]; then cat "$WORK/up.log" >&2; exit 77; fi
  [ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; fail "testcluster up $1 failed"; }
}

# scenario_outputs SCENARIO NAME...: host K answers as scenario host NAME_K.
# The shim names a reply file after the command line with '_' between
# words (system_profiler_SPThunderboltDataType_-json); the scenario files
# follow MLX's harness naming without the option dashes, so each file is
# installed under both names.
scenario_outputs() {
  sc=$1
  shift
  k=1
  for name in "$@"; do
    bash "$TC" outputs "$CL" "$k" "$SCEN/$sc/$name" >/dev/null
    out=$CL/h$k/outputs
    cp "$out/system_profiler_SPThunderboltDataType.json" "$out/system_profiler_SPThunderboltDataType_-json.txt"
    cp "$out/networksetup_listallhardwareports.txt" "$out/networksetup_-listallhardwareports.txt"
    k=$((k + 1))
  done
}

# run_distconfig ARGS...: runs distconfig against the cluster; sets RC and
# leaves stdout/stderr in $WORK/out and $WORK/err.
run_distconfig() {
  set +e
  "$DISTCONFIG" --ssh-config "$CL/ssh_config" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  set -e
}

# expected_for SCENARIO FILE NAME...: the reference file with scenario host
# names replaced by h1..hN and, with ADDRS=1, the scenario's en0 addresses
# (10.10.0.1K) replaced by each test host's real address.
expected_for() {
  sc=$1 file=$2
  shift 2
  script=
  k=1
  for name in "$@"; do
    script="$script -e s/\"$name\"/\"h$k\"/"
    if [ "${ADDRS:-0}" = 1 ]; then
      script="$script -e s/\"10\.10\.0\.1$k\"/\"$(bash "$TC" addr "$CL" "$k")\"/"
    fi
    k=$((k + 1))
  done
  # shellcheck disable=SC2086
  sed $script "$SCEN/$sc/$file"
}

assert_contains() {  # FILE TEXT
  grep -F -- "$2" "$1" >/dev/null || { cat "$1" >&2; fail "$1 lacks: $2"; }
}
assert_lacks() {
  if grep -F -- "$2" "$1" >/dev/null; then cat "$1" >&2; fail "$1 has: $2"; fi
}
