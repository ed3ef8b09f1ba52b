#!/bin/bash
# All-reduce bus bandwidth and 8-byte latency of distkit's runtime next to
# Gloo (every TCP algorithm) and Open MPI (TCP BTL), plus the TCP ceiling
# (iperf3 one stream and --bidir), all in the same run, one rank per test
# host (network namespaces from scripts/testcluster.sh). Programs are run
# one after another per round (never concurrently), rounds repeat the whole
# sequence, and the median per size is reported: only same-run ratios count
# on this machine (SPEC §8).
#
# Usage: bench/allreduce_vs_peers.sh BUILD_DIR [ROUNDS] [RANKS...]
#   BUILD_DIR  a build with -DDISTKIT_BUILD_BENCH=ON (distbench, allreduce_gloo,
#              allreduce_mpi); default ranks: 2 4; default rounds: 3
# Env: MAXBYTES (default 256M = 268435456), ITERS (5), LAT_ITERS (1000),
#      MID_ITERS (40): iterations for the sizes up to MIDBYTES (4 MiB), whose
#      whole timed loop at ITERS would last a few ms, less than one
#      scheduling hiccup of this VM; every program gets the same counts.
# Output: raw lines in $OUT/raw.txt and a Markdown table on stdout.
set -eu
BUILD=$(cd "${1:?usage: allreduce_vs_peers.sh BUILD_DIR [ROUNDS] [RANKS...]}" && pwd)
ROUNDS=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
RANK_COUNTS=${*:-2 4}
SRC=$(cd "$(dirname "$0")/.." && pwd)
MAXBYTES=${MAXBYTES:-268435456}
MINBYTES=65536
ITERS=${ITERS:-5}
MID_ITERS=${MID_ITERS:-40}
MIDBYTES=4194304
LAT_ITERS=${LAT_ITERS:-1000}
GLOO_ALGOS="ring ring_chunked halving_doubling bcube new_ring new_bcube"
OUT=${OUT:-$(mktemp -d /tmp/distkit-bench.XXXXXX)}
CL=$OUT/cluster
# A private copy of the cluster script: a long run must not read a file
# someone edits meanwhile (bash reads scripts as it goes).
mkdir -p "$OUT/scripts"
cp -r "$SRC/scripts/testcluster.sh" "$SRC/scripts/testcluster" "$OUT/scripts/"
TC=$OUT/scripts/testcluster.sh
maxn=0
for n in $RANK_COUNTS; do [ "$n" -gt "$maxn" ] && maxn=$n; done

cleanup() { "$TC" down "$CL" >/dev/null 2>&1 || true; }
trap cleanup EXIT INT TERM
"$TC" up "$maxn" "$CL" >&2
mapfile -t ADDR < "$CL/addrs"
NET=$(echo "${ADDR[0]}" | cut -d. -f1-3).0/24
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$OUT/secret"
chmod 600 "$OUT/secret"
port=42000

on() { local k=$1; shift; "$TC" exec "$CL" "$k" -- "$@"; }

# run_ranks N CMD_FOR_RANK: rank 0 in the foreground (its stdout is the
# result), the others in the background.
run_distkit() {  # N MIN MAX ITERS WARMUP
  local n=$1 hf=$OUT/hostfile.$1.json i
  port=$((port + n))
  sh "$SRC/scripts/testcluster/ring_hostfile.sh" "$n" "$port" < "$CL/addrs" > "$hf"
  for ((i = 1; i < n; i++)); do
    on $((i + 1)) env MLX_RANK=$i MLX_HOSTFILE="$hf" DISTKIT_SECRET_FILE="$OUT/secret" \
      "$BUILD/apps/distbench" -b "$2" -e "$3" -f 4 -n "$4" -w "$5" >/dev/null &
  done
  on 1 env MLX_RANK=0 MLX_HOSTFILE="$hf" DISTKIT_SECRET_FILE="$OUT/secret" \
    "$BUILD/apps/distbench" -b "$2" -e "$3" -f 4 -n "$4" -w "$5" |
    awk '!/^#/ && NF == 13 { print $1, $10, $11, $12 }'   # in-place time algbw busbw
  wait
}

run_gloo() {  # ALGO N MIN MAX ITERS WARMUP
  local algo=$1 n=$2 store i
  store=$(mktemp -d "$OUT/store.XXXXXX")
  for ((i = 1; i < n; i++)); do
    on $((i + 1)) "$BUILD/bench/allreduce_gloo" $i "$n" "${ADDR[$i]}" "$store" "$algo" "$3" "$4" 4 "$5" "$6" >/dev/null &
  done
  on 1 "$BUILD/bench/allreduce_gloo" 0 "$n" "${ADDR[0]}" "$store" "$algo" "$3" "$4" 4 "$5" "$6"
  wait
}

run_mpi() {  # N MIN MAX ITERS WARMUP
  local hosts i
  hosts=$(for ((i = 1; i <= $1; i++)); do printf 'h%d,' $i; done)
  on 1 mpirun --allow-run-as-root -np "$1" --host "${hosts%,}" \
    --mca plm_rsh_agent "ssh -F $CL/ssh_config" --mca btl tcp,self \
    --mca btl_tcp_if_include "$NET" --mca oob_tcp_if_include "$NET" \
    --bind-to none --mca mpi_yield_when_idle 1 \
    "$BUILD/bench/allreduce_mpi" "$2" "$3" 4 "$4" "$5" 2>/dev/null
}

run_iperf() {  # extra client flags; prints Gbit/s sent->received (slowest dir)
  on 2 iperf3 -s -1 -B "${ADDR[1]}" >/dev/null 2>&1 &
  sleep 0.3
  on 1 iperf3 -c "${ADDR[1]}" -t 3 -J "$@" | python3 -c '
import json, sys
e = json.load(sys.stdin)["end"]
rates = [e["sum_received"]["bits_per_second"]]
if "sum_received_bidir_reverse" in e:
    rates.append(e["sum_received_bidir_reverse"]["bits_per_second"])
print("%.3f" % (min(rates) / 8e9))'
  wait
}

raw=$OUT/raw.txt
: > "$raw"
for ((round = 1; round <= ROUNDS; round++)); do
  for n in $RANK_COUNTS; do
    echo "round $round, $n ranks" >&2
    # Each program: the mid sizes, the large ones, then the 8-byte latency.
    bands="$MINBYTES $((MAXBYTES < MIDBYTES ? MAXBYTES : MIDBYTES)) $MID_ITERS 5"
    [ "$MAXBYTES" -ge $((MIDBYTES * 4)) ] && bands="$bands|$((MIDBYTES * 4)) $MAXBYTES $ITERS 2"
    bands="$bands|8 8 $LAT_ITERS 100"
    IFS='|' read -ra band_list <<< "$bands"
    for b in "${band_list[@]}"; do
      # shellcheck disable=SC2086 # $b: a band's numbers, one argument each
      run_distkit "$n" $b | sed "s/^/$round $n distkit /" >> "$raw"
    done
    for a in $GLOO_ALGOS; do
      for b in "${band_list[@]}"; do
        # shellcheck disable=SC2086 # as above
        run_gloo "$a" "$n" $b | sed "s/^/$round $n gloo-$a /" >> "$raw"
      done
    done
    for b in "${band_list[@]}"; do
      # shellcheck disable=SC2086 # as above
      run_mpi "$n" $b | sed "s/^/$round $n openmpi /" >> "$raw"
    done
  done
  echo "$round 2 iperf3-1stream 0 0 0 $(run_iperf)" >> "$raw"
  echo "$round 2 iperf3-bidir-slower 0 0 0 $(run_iperf --bidir)" >> "$raw"
done
python3 "$SRC/bench/allreduce_report.py" "$raw"
echo "raw results: $raw" >&2
