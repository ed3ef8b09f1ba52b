#!/bin/bash
# bench/probe_fanout.sh: how long distconfig takes to probe 1, 4, 8 and 16
# test hosts when every Mac command answers 300 ms late (system_profiler is
# slow on real Macs), next to a peer measured in the same run: probing the
# same hosts one after another (what mlx.distributed_config does, in one
# round trip per host here, so the peer is if anything flattered).
# Target: 16 hosts <= 1.5 x one host. Exit 1 when missed, 77 when no test
# cluster can be brought up here (not root, no namespaces).
# Usage: bench/probe_fanout.sh [BUILD_DIR]   (default: build)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
DISTCONFIG=$BUILD/apps/distconfig
TC=$SRC/scripts/testcluster.sh
DELAY_MS=300
REPS=3
[ -x "$DISTCONFIG" ] || { echo "probe_fanout.sh: $DISTCONFIG not built" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/probe-fanout.XXXXXX")
CL=$WORK/cluster
trap 'bash "$TC" down "$CL" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT INT TERM
set +e
bash "$TC" up 16 "$CL" >"$WORK/up.log" 2>&1
rc=$?
set -e
if [ "$rc" != 0 ]; then cat "$WORK/up.log" >&2; exit "$rc"; fi
for k in $(seq 1 16); do
  bash "$TC" outputs "$CL" "$k" "$SRC/tests/data/scenarios/mesh4_m3ultra_rdma/studio-a" >/dev/null
  out=$CL/h$k/outputs
  cp "$out/system_profiler_SPThunderboltDataType.json" "$out/system_profiler_SPThunderboltDataType_-json.txt"
  cp "$out/networksetup_listallhardwareports.txt" "$out/networksetup_-listallhardwareports.txt"
  bash "$TC" delay "$CL" "$k" "$DELAY_MS" >/dev/null
done

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
hosts_list() { seq -s, -f 'h%g' 1 "$1"; }

# One distconfig run over hosts h1..hN (probe + topology, DOT output).
parallel_ms() {
  local t0 t1
  t0=$(now_ms)
  "$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts "$(hosts_list "$1")" --dot >/dev/null 2>&1 || return 1
  t1=$(now_ms)
  echo $((t1 - t0))
}
# The peer: one distconfig run per host, one after another.
sequential_ms() {
  local t0 t1 k
  t0=$(now_ms)
  for k in $(seq 1 "$1"); do
    "$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts "h$k" --dot >/dev/null 2>&1 || return 1
  done
  t1=$(now_ms)
  echo $((t1 - t0))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "# probe_fanout: distconfig probe time, every Mac command delayed ${DELAY_MS} ms, median of $REPS"
echo "# $(uname -sr), $(nproc) cores; peer = the same hosts probed one after another"
printf '#%6s %12s %14s %10s %12s\n' hosts parallel_ms sequential_ms speedup vs_1host
base=
status=0
for n in 1 4 8 16; do
  p=$(for _r in $(seq 1 $REPS); do parallel_ms "$n"; done | median)
  s=$(for _r in $(seq 1 $REPS); do sequential_ms "$n"; done | median)
  [ -n "$base" ] || base=$p
  awk -v n="$n" -v p="$p" -v s="$s" -v b="$base" \
    'BEGIN { printf " %6d %12d %14d %9.1fx %11.2fx\n", n, p, s, s / p, p / b }'
  last=$p
done
if awk -v l="$last" -v b="$base" 'BEGIN { exit !(l > 1.5 * b) }'; then
  echo "# MISSED: 16 hosts took ${last} ms > 1.5 x ${base} ms"
  status=1
else
  echo "# ok: 16 hosts within 1.5 x one host"
fi
exit $status
