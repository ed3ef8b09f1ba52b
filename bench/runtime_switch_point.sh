#!/bin/bash
# Measures where distkit's all-reduce should switch from recursive doubling
# (latency-bound) to the pipelined ring (bandwidth-bound): every size from
# 1 KiB to 4 MiB run both ways (DISTKIT_SMALL_BYTES forces the choice),
# interleaved per round, one rank per test host. Prints the median time per
# size and algorithm and the largest size where recursive doubling still wins.
#
# Usage: bench/runtime_switch_point.sh BUILD_DIR [ROUNDS] [RANKS...]
set -eu
BUILD=$(cd "${1:?usage: runtime_switch_point.sh BUILD_DIR [ROUNDS] [RANKS...]}" && pwd)
ROUNDS=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
RANK_COUNTS=${*:-2 4}
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/distkit-switch.XXXXXX)}
CL=$OUT/cluster
# A private copy of the cluster script: a long run must not read a file
# someone edits meanwhile (bash reads scripts as it goes).
mkdir -p "$OUT/scripts"
cp -r "$SRC/scripts/testcluster.sh" "$SRC/scripts/testcluster" "$OUT/scripts/"
TC=$OUT/scripts/testcluster.sh
maxn=0
for n in $RANK_COUNTS; do [ "$n" -gt "$maxn" ] && maxn=$n; done
trap '"$TC" down "$CL" >/dev/null 2>&1 || true' EXIT INT TERM
"$TC" up "$maxn" "$CL" >&2
mapfile -t ADDR < "$CL/addrs"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$OUT/secret"
chmod 600 "$OUT/secret"
port=43000

run() {  # N SMALL_BYTES -> "size time_us" lines (in-place)
  local n=$1 hf=$OUT/hf.json i
  port=$((port + n))
  { printf '['; for ((i = 0; i < n; i++)); do
      printf '%s["%s:%d"]' "$([ $i -gt 0 ] && echo ,)" "${ADDR[$i]}" $((port + i)); done
    printf ']\n'; } > "$hf"
  local args=(-b 1K -e 4M -f 2 -n 50 -w 5 -c 0)
  for ((i = 1; i < n; i++)); do
    "$TC" exec "$CL" $((i + 1)) -- env MLX_RANK=$i MLX_HOSTFILE="$hf" DISTKIT_SECRET_FILE="$OUT/secret" \
      DISTKIT_SMALL_BYTES="$2" "$BUILD/apps/distbench" "${args[@]}" >/dev/null &
  done
  "$TC" exec "$CL" 1 -- env MLX_RANK=0 MLX_HOSTFILE="$hf" DISTKIT_SECRET_FILE="$OUT/secret" \
    DISTKIT_SMALL_BYTES="$2" "$BUILD/apps/distbench" "${args[@]}" | awk '!/^#/ && NF == 13 { print $1, $10 }'
  wait
}

raw=$OUT/raw.txt
: > "$raw"
for ((r = 1; r <= ROUNDS; r++)); do
  for n in $RANK_COUNTS; do
    run "$n" 1073741824 | sed "s/^/$n rd /" >> "$raw"
    run "$n" 0 | sed "s/^/$n ring /" >> "$raw"
  done
done
python3 - "$raw" <<'PY'
import statistics, sys
from collections import defaultdict
t = defaultdict(list)
for line in open(sys.argv[1]):
    n, alg, size, us = line.split()
    t[(int(n), alg, int(size))].append(float(us))
for n in sorted({k[0] for k in t}):
    print(f"\n{n} ranks: in-place all-reduce time (us, median)\n\n| size | recursive doubling | ring | faster |\n|---:|---:|---:|---|")
    last_rd = None
    for s in sorted({k[2] for k in t if k[0] == n}):
        rd, ring = statistics.median(t[(n, "rd", s)]), statistics.median(t[(n, "ring", s)])
        print(f"| {s} | {rd:.1f} | {ring:.1f} | {'rd' if rd < ring else 'ring'} |")
        if rd < ring:
            last_rd = s
    print(f"\nlargest size where recursive doubling wins: {last_rd}")
PY
echo "raw: $raw" >&2
