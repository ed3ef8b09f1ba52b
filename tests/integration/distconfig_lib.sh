# Shared helpers for the distconfig integration tests (sourced, POSIX sh).
# Each test brings up its own test cluster (scripts/testcluster.sh) in a
# temporary directory and always tears it down. Mac commands on the test
# hosts are answered by the cluster's shims from the shared scenario
# captures (tests/data/scenarios), one scenario host per test host.
# The cluster plumbing (cluster_up N, WORK, teardown) is cluster_lib.sh's;
# CL and TC name its cluster dir and script here.
: "${DISTKIT_BUILD_DIR:=${DISTKIT_SOURCE_DIR:-$(pwd)}/build}"
CLUSTER_PREFIX=distconfig-it
. "$(dirname "$0")/cluster_lib.sh"
DISTCONFIG=$BUILD/apps/distconfig
CL=$C
TC=$CLUSTER
SCEN=$SRC/tests/data/scenarios

[ -x "$DISTCONFIG" ] || { echo "SKIP: $DISTCONFIG not built"; exit 77; }

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
  # shellcheck disable=SC2034 # read by the scripts that source this file
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
    # shellcheck disable=SC2089 # the quotes are sed's: JSON strings, matched as they are
    script="$script -e s/\"$name\"/\"h$k\"/"
    if [ "${ADDRS:-0}" = 1 ]; then
      script="$script -e s/\"10\.10\.0\.1$k\"/\"$(bash "$TC" addr "$CL" "$k")\"/"
    fi
    k=$((k + 1))
  done
  # shellcheck disable=SC2086,SC2090 # split into sed's -e arguments (no spaces in them)
  sed $script "$SCEN/$sc/$file"
}

assert_contains() {  # FILE TEXT
  grep -F -- "$2" "$1" >/dev/null || { cat "$1" >&2; fail "$1 lacks: $2"; }
}
assert_lacks() {
  if grep -F -- "$2" "$1" >/dev/null; then cat "$1" >&2; fail "$1 has: $2"; fi
}
