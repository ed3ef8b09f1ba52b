#!/bin/sh
# The cost of --stall-timeout's progress sampling: CPU time of the host side
# (the host agent, with the 32 ranks' reaped time) and of
# distlaunch, over the same 11 s of a 32-rank job of `sleep` on this
# machine, without sampling and with it (the agent reads /proc for every
# rank's group each second and sends M frames), interleaved, same run.
#
# Usage: bench/stall_sampling.sh BUILD_DIR [REPEATS]   (Linux; default 3)
# Prints a `#` preamble, then per mode the median CPU ms of the host side
# (agent and its children: every thread's schedstat run time) and of distlaunch,
# and the ratio with/without.
set -eu
BUILD=${1:?usage: stall_sampling.sh BUILD_DIR [REPEATS]}
REPEATS=${2:-3}
DL="$BUILD/apps/distlaunch"
[ -x "$DL" ] || { echo "stall_sampling.sh: error: $DL not built" >&2; exit 1; }
[ -r /proc/self/stat ] || { echo "stall_sampling.sh: needs Linux /proc" >&2; exit 77; }

# cpu_us PID...: CPU time of every thread of the PIDs, in microseconds
# (schedstat's run time: nanoseconds, where stat's ticks are 10 ms).
cpu_us() {
  for p in "$@"; do cat "/proc/$p"/task/*/schedstat 2>/dev/null; done |
    awk '{ s += $1 } END { printf "%d\n", s / 1000 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run() {  # run MODE: prints "HOST_US LAUNCHER_US"
  set -- "$1"
  extra=""
  [ "$1" = on ] && extra="--stall-timeout 60"
  # shellcheck disable=SC2086 # $extra is two words or none
  "$DL" --hosts 127.0.0.1 -n 32 --no-stdin $extra -- sleep 13 &
  dl=$!
  sleep 1
  agent=$(pgrep -P "$dl" -f -- "--host-agent" | head -1)
  # shellcheck disable=SC2046 # the agent and its children, one word each
  set -- "$agent" $(pgrep -P "$agent")
  a0=$(cpu_us "$@"); l0=$(cpu_us "$dl")
  sleep 11
  a1=$(cpu_us "$@"); l1=$(cpu_us "$dl")
  wait "$dl"
  echo "$((a1 - a0)) $((l1 - l0))"
}

echo "# stall_sampling: 32 ranks of sleep on 127.0.0.1, CPU over 11 s, $REPEATS rounds"
echo "# $(uname -srm), $(nproc) cores, $(date -u +%Y-%m-%d)"
: > /tmp/stall_sampling.off; : > /tmp/stall_sampling.on
i=0
while [ $i -lt "$REPEATS" ]; do
  run off >> /tmp/stall_sampling.off
  run on >> /tmp/stall_sampling.on
  i=$((i + 1))
done
for m in off on; do
  a=$(cut -d' ' -f1 /tmp/stall_sampling.$m | median)
  l=$(cut -d' ' -f2 /tmp/stall_sampling.$m | median)
  echo "$m $a $l"
done | awk '
  { a[$1] = $2; l[$1] = $3 }
  END {
    printf "%-22s %12s %12s\n", "sampling", "host ms", "launcher ms"
    printf "%-22s %12.1f %12.1f\n", "off", a["off"] / 1000, l["off"] / 1000
    printf "%-22s %12.1f %12.1f\n", "on (--stall-timeout)", a["on"] / 1000, l["on"] / 1000
    printf "%-22s %12.2f %12.2f\n", "on/off", (a["off"] ? a["on"] / a["off"] : 0), (l["off"] ? l["on"] / l["off"] : 0)
    printf "# sampling costs %.2f ms of CPU per second on the host (%.3f%% of a core), %.2f ms/s in distlaunch\n", (a["on"] - a["off"]) / 11000, (a["on"] - a["off"]) / 110000, (l["on"] - l["off"]) / 11000
  }'
rm -f /tmp/stall_sampling.off /tmp/stall_sampling.on
