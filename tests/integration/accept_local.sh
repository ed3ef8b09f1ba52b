# distaccept on this machine alone (ranks local, no SSH, no namespaces):
# the example reaches all three levels with 2 ranks; a bad task file, an
# unknown baseline host and a missing hostfile are usage errors (exit 2)
# with one exact line; nothing is run for them; SIGINT stops the ranks and
# exits 130, with the interruption in acceptance.json's problems.
set -eu
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}
DA="$BUILD/apps/distaccept"
[ -x "$DA" ] || { echo "SKIP: $DA not built"; exit 77; }
[ -x "$BUILD/examples/linear_regression/linreg" ] || { echo "SKIP: linreg not built"; exit 77; }
git -C "$SRC" rev-parse HEAD >/dev/null 2>&1 || { echo "SKIP: $SRC is not a git checkout"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-accept-local.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

echo '[{"ssh": "127.0.0.1", "ips": ["127.0.0.1"]}]' > "$WORK/hosts.json"
sed -e "s|\"examples/linear_regression/linreg\"|\"$BUILD/examples/linear_regression/linreg\"|g" \
  "$SRC/examples/linear_regression/task.json" > "$WORK/task.json"
. "$(dirname "$0")/ports_lib.sh"
port=$(free_port_block 8)

rc=0
(cd "$SRC" && "$DA" --hostfile "$WORK/hosts.json" -n 2 -k 1 -p "$port" --work-dir "$WORK/runs" \
  "$WORK/task.json") > "$WORK/report" 2> "$WORK/err" || rc=$?
[ "$rc" = 0 ] || { cat "$WORK/report" "$WORK/err"; fail "exit $rc, expected 0"; }
grep -qxF "all three levels reached: runs, reproducible, deliverable" "$WORK/report" ||
  { cat "$WORK/report"; fail "no verdict line"; }
grep -qxF "  baseline: 1 run(s) of 2 rank(s) on 127.0.0.1" "$WORK/report" || fail "baseline line"
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; fail "stderr is not a TTY: no progress expected"; }

# usage ERRTEXT ARGS...: exit 2, exactly ERRTEXT on stderr, nothing run.
usage() {
  want=$1
  shift
  rc=0
  "$DA" --work-dir "$WORK/never" "$@" > "$WORK/out" 2> "$WORK/err" || rc=$?
  [ "$rc" = 2 ] || fail "$*: exit $rc, expected 2"
  [ "$(cat "$WORK/err")" = "$want" ] || fail "$*: stderr '$(cat "$WORK/err")', expected '$want'"
  [ ! -e "$WORK/never" ] || fail "$*: work directory created"
}
printf '{"command": ["x"], "metrics": {"loss": {"rel": -1}}}' > "$WORK/bad.json"
usage "distaccept: error: $WORK/bad.json: metrics.loss.rel: must be a number ≥ 0; see TASK FILE in distaccept(1)" \
  --hostfile "$WORK/hosts.json" "$WORK/bad.json"
usage "distaccept: error: --baseline-host: no host \"studio-z\" in $WORK/hosts.json; give one of the hostfile's hosts" \
  --hostfile "$WORK/hosts.json" --baseline-host studio-z "$WORK/task.json"
# distlaunch's check of a duration, at parse time: nothing is run.
usage "distaccept: error: --connect-timeout: nan is not a number of seconds from 0.001 to 31536000; e.g. --connect-timeout 30" \
  --hostfile "$WORK/hosts.json" --connect-timeout nan "$WORK/task.json"
rc=0
"$DA" "$WORK/task.json" > /dev/null 2> "$WORK/err" || rc=$?
[ "$rc" = 2 ] || fail "no --hostfile: exit $rc, expected 2"
grep -q -- "--hostfile is required" "$WORK/err" || { cat "$WORK/err"; fail "no --hostfile message"; }

# SIGINT during a run: the ranks are stopped, exit 130 naming the run.
echo '{"command": ["sleep", "60"], "metrics": {"x": "exact"}, "seeds": {}}' > "$WORK/sleep.json"
"$DA" --hostfile "$WORK/hosts.json" -p "$port" --work-dir "$WORK/int" "$WORK/sleep.json" \
  > /dev/null 2> "$WORK/err" &
pid=$!
t=0
until [ -f "$WORK/int/baseline-1/rank-0.log" ] || [ $t -ge 100 ]; do sleep 0.1; t=$((t + 1)); done
sleep 0.5
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 130 ] || { cat "$WORK/err"; fail "interrupted: exit $rc, expected 130"; }
[ "$(cat "$WORK/err")" = "distaccept: error: baseline-1: interrupted; every rank was stopped" ] ||
  fail "interrupted: stderr '$(cat "$WORK/err")'"
[ "$(grep -c '"exit_code"' "$WORK/int/baseline-1/manifest.json")" = 1 ] || fail "no manifest after SIGINT"
grep -A4 -F '"kind": "interrupted",' "$WORK/int/acceptance.json" | grep -qF '"subject": "baseline-1"' ||
  fail "acceptance.json lacks the interruption"
echo PASS
