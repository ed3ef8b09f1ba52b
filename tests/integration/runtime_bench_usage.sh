# distbench --threads' usage errors come before any rank prints, with the
# launched ranks' words: one line, exit 2, nothing on stdout (a bad -r once
# printed the preamble and the table header, then failed with the runtime's
# own message about the broadcast root).
. "$(dirname "$0")/launch_lib.sh"
DISTBENCH=$BUILD/apps/distbench

# usage ARGS... EXPECTED-LINE: distbench ARGS exits 2 with EXPECTED-LINE
# as its only output.
usage() {
  expected=$1
  shift
  rc=0
  "$DISTBENCH" "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [ "$rc" = 2 ] || { cat "$WORK/out" "$WORK/err" >&2; echo "FAIL: distbench $* exited $rc"; exit 1; }
  [ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; echo "FAIL: distbench $* printed on stdout"; exit 1; }
  [ "$(cat "$WORK/err")" = "$expected" ] ||
    { cat "$WORK/err" >&2; echo "FAIL: distbench $*: expected '$expected'"; exit 1; }
}

usage "distbench: error: -r/--root: not a rank of this job" --threads 2 -r 5 -t broadcast
usage "distbench: error: -r/--root: not a rank of this job" --threads 2 -r -1 -t broadcast
usage "distbench: error: -b/--minbytes: '12X' is not a size; use bytes with an optional K, M or G" \
  --threads 2 -b 12X
echo PASS
