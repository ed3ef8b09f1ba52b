#!/bin/bash
# distkit's all-reduce (distbench) next to MLX's own ring all_sum (MLX's C++
# library built from an MLX source archive, tests/mlx/mlx_collectives
# --bench), in one run on the same test hosts (scripts/testcluster.sh), one
# rank per host, both launched by distlaunch from the hostfile
# `distconfig --over ethernet` writes. Both time the same way (warm-up, a
# barrier, the mean of the timed loop, the slowest rank's) and compute the
# columns as MLX's jaccl_allreduce_bench does: algbw = bytes / time,
# busbw = algbw * 2(n-1)/n. distkit's figures are distbench's out-of-place
# column: MLX's all_sum returns a new array.
# Programs run one after another (never two at once), each round runs the
# whole sequence for every rank count, and the median time per size over
# the rounds is reported (SPEC §8: only same-run ratios count here).
#
# Usage: bench/allreduce_vs_mlx.sh BUILD_DIR MLX_ARCHIVE [ROUNDS] [RANKS...]
#   BUILD_DIR    a distkit build (distlaunch, distconfig, distbench)
#   MLX_ARCHIVE  an MLX source archive (tests/mlx/build_mlx.sh builds and
#                caches MLX's C++ library from it: 10-20 min the first time)
#   defaults: 3 rounds, 2 and 4 ranks
# Env: MINBYTES (65536), MAXBYTES (67108864), ITERS (5) and MID_ITERS (40):
#      iterations above and up to 4 MiB, as bench/allreduce_vs_peers.sh.
# Output: a table on stdout in nccl-tests columns; raw lines in $OUT/raw.txt.
# Root, Linux (network namespaces).
set -eu
usage="usage: allreduce_vs_mlx.sh BUILD_DIR MLX_ARCHIVE [ROUNDS] [RANKS...]"
BUILD=$(cd "${1:?$usage}" && pwd)
ARCHIVE=${2:?$usage}
ROUNDS=${3:-3}
shift $(($# >= 3 ? 3 : 2))
RANK_COUNTS=${*:-2 4}
SRC=$(cd "$(dirname "$0")/.." && pwd)
MINBYTES=${MINBYTES:-65536}
MAXBYTES=${MAXBYTES:-67108864}
ITERS=${ITERS:-5}
MID_ITERS=${MID_ITERS:-40}
MIDBYTES=4194304
OUT=${OUT:-$(mktemp -d /tmp/distkit-bench-mlx.XXXXXX)}
CL=$OUT/cluster
mkdir -p "$OUT/scripts"
cp -r "$SRC/scripts/testcluster.sh" "$SRC/scripts/testcluster" "$OUT/scripts/"
TC=$OUT/scripts/testcluster.sh
MLX_PROG=$(sh "$SRC/tests/mlx/build_mlx.sh" "$ARCHIVE" "$OUT/mlx")
maxn=0
for n in $RANK_COUNTS; do [ "$n" -gt "$maxn" ] && maxn=$n; done

cleanup() { "$TC" down "$CL" >/dev/null 2>&1 || true; }
trap cleanup EXIT INT TERM
"$TC" up "$maxn" "$CL" >&2
for n in $RANK_COUNTS; do
  hosts=$(seq -s, -f 'h%g' 1 "$n")
  "$BUILD/apps/distconfig" --ssh-config "$CL/ssh_config" --hosts "$hosts" --over ethernet \
    --output-hostfile "$OUT/hosts$n.json" >&2
done
port=33000

# launch N ARGS...: one rank per host on N hosts; fresh ports every run.
launch() {
  local n=$1
  shift
  port=$((port + 8))
  "$BUILD/apps/distlaunch" --ssh-config "$CL/ssh_config" --hostfile "$OUT/hosts$n.json" \
    --starting-port "$port" --timeout 600 -- "$@"
}

raw=$OUT/raw.txt
: >"$raw"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
bands="$MINBYTES $((MAXBYTES < MIDBYTES ? MAXBYTES : MIDBYTES)) $MID_ITERS 5"
[ "$MAXBYTES" -ge $((MIDBYTES * 4)) ] && bands="$bands|$((MIDBYTES * 4)) $MAXBYTES $ITERS 2"
IFS='|' read -ra band_list <<<"$bands"
for ((round = 1; round <= ROUNDS; round++)); do
  for n in $RANK_COUNTS; do
    echo "round $round, $n ranks" >&2
    for b in "${band_list[@]}"; do
      read -r lo hi it wu <<<"$b"
      # size time #wrong, out of place
      launch "$n" "$BUILD/apps/distbench" -t all_reduce -b "$lo" -e "$hi" -f 4 -n "$it" -w "$wu" |
        awk -v p="$round $n distkit" '!/^#/ && NF == 13 { print p, $1, $6, $9 }' >>"$raw"
      launch "$n" "$MLX_PROG" --bench -b "$lo" -e "$hi" -f 4 -n "$it" -w "$wu" >"$OUT/mlx.out"
      awk -v p="$round $n mlx" '!/^#/ && NF == 9 { print p, $1, $6, $9 }' "$OUT/mlx.out" >>"$raw"
    done
  done
done

{
  echo "# allreduce_vs_mlx: all-reduce float32 sum, one rank per test host, distlaunch"
  echo "# distkit: $("$BUILD/apps/distbench" --version), out of place; MLX:" \
    "$(sed -n 's/^# mlx_collectives --bench: MLX \([^ ]*\).*/\1/p' "$OUT/mlx.out") from" \
    "$(basename "$ARCHIVE"), ring backend ($(sed -n 's/^built //p' "$(awk '{ print $NF }' "$MLX_PROG.key")/BUILD_INFO"))"
  echo "# $ROUNDS rounds, median time per size; algbw = bytes/time, busbw = algbw*2(n-1)/n (GB/s)"
  echo "# $(uname -srm), $(getconf _NPROCESSORS_ONLN) cores, load $load0 at the start, $(date -u +%Y-%m-%d)"
} >"$OUT/preamble"
python3 - "$raw" "$OUT/preamble" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    rnd, n, prog, size, time_us, wrong = line.split()
    rows.setdefault((int(n), int(size), prog), []).append((float(time_us), int(wrong)))
print(open(sys.argv[2]).read(), end="")
head = "#%11s  %12s  %8s  %6s  %5s  %8s  %7s  %7s  %8s  %7s  %7s  %7s  %6s"
print(head % ("size", "count", "type", "redop", "ranks", "distkit", "algbw", "busbw",
              "mlx", "algbw", "busbw", "ratio", "#wrong"))
print(head % ("(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "(us)", "(GB/s)",
              "(GB/s)", "dk/mlx", ""))
bad = 0
for n, size in sorted({(k[0], k[1]) for k in rows}):
    cells, wrong = [], 0
    for prog in ("distkit", "mlx"):
        got = rows.get((n, size, prog), [])
        t = statistics.median(x[0] for x in got) if got else float("nan")
        wrong += sum(x[1] for x in got)
        algbw = size / t / 1e3 if t > 0 else float("nan")
        cells.append((t, algbw, algbw * 2 * (n - 1) / n))
    bad += wrong
    ratio = cells[0][2] / cells[1][2] if cells[1][2] > 0 else float("nan")
    print(" %11d  %12d  %8s  %6s  %5d  %8.1f  %7.3f  %7.3f  %8.1f  %7.3f  %7.3f  %7.2f  %6d" % (
        size, size // 4, "float32", "sum", n, *cells[0], *cells[1], ratio, wrong))
sys.exit(1 if bad else 0)
EOF
echo "raw results: $raw" >&2
