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

usage "distbench: error: -r/--root: 5 is not a rank of this job; give one of 0 to 1" \
  --threads 2 -r 5 -t broadcast
usage "distbench: error: -r/--root: -1 is not a rank of this job; give one of 0 to 2" \
  --threads 3 -r -1 -t broadcast
usage "distbench: error: -b/--minbytes: 1K is larger than -e/--maxbytes 8; give a smallest size no larger than the largest" \
  --threads 2 -b 1K -e 8
usage "distbench: error: -f/--stepfactor: must be above 1; e.g. -f 2 doubles the size each row" \
  --threads 2 -f 1
usage "distbench: error: -f/--stepfactor: must be above 1; e.g. -f 2 doubles the size each row" \
  --threads 2 -f nan
# The tools' one integer check (CLI11's NonNegativeNumber printed DBL_MAX's
# 309 digits, its Range "Value 1e9 not in range").
usage "distbench: error: --iters: -1 is out of range; give a whole number from 0 to 2147483647; see distbench --help" \
  --threads 2 -n -1
usage "distbench: error: --iters: \"1e9\" is not a whole number; give one from 0 to 2147483647; see distbench --help" \
  --threads 2 -n 1e9
usage "distbench: error: -d/--datatype: unknown type 'fp32'; use one of bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64, complex64" \
  --threads 2 -d fp32
usage "distbench: error: -b/--minbytes: '12X' is not a size; use bytes with an optional K, M or G" \
  --threads 2 -b 12X

# The open-file limit: 16 ranks in one process need 256 sockets. A soft
# limit below that is raised (macOS shells start at 256); a hard one is
# one line with the remedy, at once (it once waited out the 60 s connect
# timeout with a core spinning on accept()).
# shellcheck disable=SC3045 # ulimit -S and -n: dash and macOS's sh have both
(ulimit -Sn 40 && "$DISTBENCH" --threads 16 -b 1K -e 1K >"$WORK/out" 2>"$WORK/err") ||
  { cat "$WORK/err" >&2; echo "FAIL: --threads 16 under a soft limit of 40"; exit 1; }
grep -q "^ *1024 " "$WORK/out" || { cat "$WORK/out" >&2; echo "FAIL: no 1024-byte row"; exit 1; }
rc=0
# shellcheck disable=SC3045
(ulimit -n 100 && exec "$DISTBENCH" --threads 16 -b 1K -e 1K) >"$WORK/out" 2>"$WORK/err" || rc=$?
if [ "$rc" != 1 ] || [ -s "$WORK/out" ] || [ "$(cat "$WORK/err")" != "distbench: error: --threads 16: needs 256 sockets, and the open-file limit is 100; raise it (ulimit -n 512), or run fewer ranks" ]; then
  cat "$WORK/out" "$WORK/err" >&2
  echo "FAIL: --threads 16 under a hard limit of 100 (exit $rc)"
  exit 1
fi
echo PASS
