#!/bin/sh
# The cost of --stall-timeout's progress sampling: CPU time of the host side
# (the host agent and its 32 rank wrappers, with what they reaped) and of
# distlaunch, over the same 11 s of a 32-rank job of `sleep` on this
# machine, without sampling and with it (the agent reads /proc for every
# rank's group each second and sends M frames), interleaved, same run.
#
# Usage: bench/stall_sampling.sh BUILD_DIR [REPEATS]   (Linux; default 3)
# Prints a `#` preamble, then per mode the median CPU ms of the host side
# and of distlaunch, and the ratio with/without.
set -eu
BUILD=${1:?usage: stall_sampling.sh BUILD_DIR [REPEATS]}
REPEATS=${2:-3}
DL="$BUILD/apps/distlaunch"
[ -x "$DL" ] || { echo "stall_sampling.sh: error: $DL not built" >&2; exit 1; }
[ -r /proc/self/stat ] || { echo "stall_sampling.sh: needs Linux /proc" >&2; exit 77; }
TICK_MS=$((1000 / $(getconf CLK_TCK)))

# cpu_ms PID: utime + stime + cutime + cstime of PID, in ms.
cpu_ms() {
  sed 's/.*) //' "/proc/$1/stat" | awk -v t="$TICK_MS" '{ print ($12 + $13 + $14 + $15) * t }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

run() {  # run MODE: prints "AGENT_MS LAUNCHER_MS"
  set -- "$1"
  extra=""
  [ "$1" = on ] && extra="--stall-timeout 60"
  # shellcheck disable=SC2086 # $extra is two words or none
  "$DL" --hosts 127.0.0.1 -n 32 --no-stdin $extra -- sleep 13 &
  dl=$!
  sleep 1
  agent=$(pgrep -P "$dl" -f -- "--host-agent" | head -1)
  a0=$(cpu_ms "$agent"); l0=$(cpu_ms "$dl")
  sleep 11
  a1=$(cpu_ms "$agent"); l1=$(cpu_ms "$dl")
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
    printf "%-22s %10s %10s\n", "sampling", "host ms", "launcher ms"
    printf "%-22s %10d %10d\n", "off", a["off"], l["off"]
    printf "%-22s %10d %10d\n", "on (--stall-timeout)", a["on"], l["on"]
    printf "%-22s %10.2f %10.2f\n", "on/off", (a["off"] ? a["on"] / a["off"] : 0), (l["off"] ? l["on"] / l["off"] : 0)
    printf "# sampling costs %.1f ms of CPU per second on the host (%.2f%% of a core), %.1f ms/s in distlaunch\n", (a["on"] - a["off"]) / 11, (a["on"] - a["off"]) / 110, (l["on"] - l["off"]) / 11
  }'
rm -f /tmp/stall_sampling.off /tmp/stall_sampling.on
