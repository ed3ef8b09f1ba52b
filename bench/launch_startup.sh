#!/bin/sh
# Launch benchmark: wall time from start to all ranks finished for `true`
# with 4, 16 and 32 ranks over 1, 4 and 8 test hosts, distlaunch next to
# Open MPI's mpirun (Debian openmpi-bin, ssh launcher) doing the same job on
# the same hosts in the same run, interleaved; then the time from one rank's
# failure to distlaunch's exit (every other rank's process group gone).
# distlaunch runs each host's ranks through one host agent channel (its
# only host side). Measured in the same run, for reference: the same
# connections and one SSH channel per rank running `true` directly
# (tests/unit/ssh/ssh_tool, no agent, no preflight), i.e. the least any
# launcher that gives each rank its own channel has to do.
#
# Usage: bench/launch_startup.sh BUILD_DIR [REPEATS]   (root, Linux; default 5)
# Prints a `#` preamble, one row per (ranks, hosts) with medians in ms and the
# ratio distlaunch/mpirun, then the failure-to-teardown medians. Exit status 1
# when a run fails, 77 when the test cluster cannot be brought up here.
set -eu

BUILD=${1:?usage: launch_startup.sh BUILD_DIR [REPEATS]}
REPEATS=${2:-5}
SRC=$(cd "$(dirname "$0")/.." && pwd)
DL="$BUILD/apps/distlaunch"
TOOL="$BUILD/tests/unit/ssh/ssh_tool"
CLUSTER="$SRC/scripts/testcluster.sh"
[ -x "$DL" ] || { echo "launch_startup.sh: error: $DL not built; build target distlaunch" >&2; exit 1; }
[ -x "$BUILD/apps/distkit-agent" ] ||
  { echo "launch_startup.sh: error: $BUILD/apps/distkit-agent not built; build target distkit-agent" >&2; exit 1; }
[ -x "$TOOL" ] || { echo "launch_startup.sh: error: $TOOL not built; build target ssh_tool" >&2; exit 1; }
command -v mpirun >/dev/null 2>&1 ||
  { echo "launch_startup.sh: error: mpirun missing; run scripts/install-deps.sh --bench" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-launch-bench.XXXXXX")
C="$WORK/cluster"
trap '"$CLUSTER" down "$C" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
rc=0
"$CLUSTER" up 8 "$C" 2>"$WORK/up.log" || rc=$?
[ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; exit "$rc"; }
net=$(sed -n 's/.*(\(10\.[0-9.]*\/24\)).*/\1/p' "$WORK/up.log" | head -n 1)
[ -n "$net" ] || net=$("$CLUSTER" addr "$C" 1 | sed 's/\.[0-9]*$/.0\/24/')

hosts_csv() { seq 1 "$1" | sed 's/^/h/' | paste -sd, -; }
ms() { date +%s%N | cut -c1-13; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run_distlaunch() {  # RANKS HOSTS [distlaunch options]
  r=$1 h=$2; shift 2
  t0=$(ms)
  "$DL" --ssh-config "$C/ssh_config" --hosts "$(hosts_csv "$h")" -n $((r / h)) "$@" -- true \
    < /dev/null > "$WORK/out" 2>&1 || { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}
# RANKS HOSTS: the host list with each host repeated once per rank (ssh_tool
# runs one channel per entry; duplicates share their host's connection).
rank_hosts() { i=0; while [ $i -lt "$1" ]; do echo "h$((i * $2 / $1 + 1))"; i=$((i + 1)); done | paste -sd, -; }
run_floor() {  # RANKS HOSTS
  t0=$(ms)
  "$TOOL" --ssh-config "$C/ssh_config" --max-channels "$(($1 / $2 + 1))" --hosts "$(rank_hosts "$1" "$2")" \
    -- true < /dev/null > "$WORK/out" 2>&1 || { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}
run_mpirun() {  # RANKS HOSTS; prints "hung" when mpirun has not finished in 30 s
  seq 1 "$2" | sed "s/^\(.*\)\$/h\1 slots=$(($1 / $2))/" > "$WORK/mpihosts"
  t0=$(ms)
  rc=0
  timeout 30 mpirun --allow-run-as-root --oversubscribe --bind-to none \
    --hostfile "$WORK/mpihosts" -np "$1" --mca plm_rsh_args "-F $C/ssh_config" \
    --mca oob_tcp_if_include "$net" --mca btl_tcp_if_include "$net" true < /dev/null > "$WORK/out" 2>&1 || rc=$?
  if [ "$rc" = 124 ]; then echo hung; return; fi
  [ "$rc" = 0 ] || { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}

echo "# distlaunch vs Open MPI mpirun: start to all ranks finished, command 'true'"
echo "# $("$DL" --version) | $(mpirun --version 2>&1 | head -n 1) | $(ssh -V 2>&1)"
echo "# hosts: scripts/testcluster.sh (one sshd per network namespace, this machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
echo "# ranks placed in blocks (h1 gets ranks 0..k-1, ...); stdin /dev/null for both (as in a script); medians of $REPEATS interleaved runs"
run_distlaunch 4 1 >/dev/null; run_mpirun 4 1 >/dev/null  # warm-up
printf '%6s %6s %14s %12s %10s %10s %12s\n' ranks hosts distlaunch_ms mpirun_ms ratio floor_ms floor_ratio
for combo in "4 1" "4 4" "16 1" "16 4" "16 8" "32 1" "32 4" "32 8"; do
  # shellcheck disable=SC2086 # split "RANKS HOSTS" into $1 $2
  set -- $combo
  : > "$WORK/d"; : > "$WORK/m"; : > "$WORK/f"
  i=0
  while [ $i -lt "$REPEATS" ]; do
    run_distlaunch "$1" "$2" >> "$WORK/d"
    run_floor "$1" "$2" >> "$WORK/f"
    run_mpirun "$1" "$2" >> "$WORK/m"
    grep -q hung "$WORK/m" && break  # do not wait 30 s again
    i=$((i + 1))
  done
  d=$(median < "$WORK/d"); f=$(median < "$WORK/f")
  if grep -q hung "$WORK/m"; then m="hung>30s"; ratio="-"; fratio="-"; else
    m=$(median < "$WORK/m"); ratio=$(awk -v a="$d" -v b="$m" 'BEGIN { printf "%.2f", a / b }')
    fratio=$(awk -v a="$f" -v b="$m" 'BEGIN { printf "%.2f", a / b }'); fi
  printf '%6s %6s %14s %12s %10s %10s %12s\n' "$1" "$2" "$d" "$m" "$ratio" "$f" "$fratio"
done

# Failure to teardown: rank 0 records the time and exits 1 while the others
# sleep; distlaunch exits once every rank has ended (its group gone).
# Two clocks, interleaved: `date +%s%N | cut` in the rank and after
# distlaunch (the first tables' method; each $(date | cut) costs this
# machine ~10 ms of process starts, part of it inside the interval), and
# perl taking both stamps in-process (the rank's as it exits, distlaunch's
# as its waitpid returns): the interval itself.
echo "# failure to teardown: rank 0 exits 1 after 1 s, the others sleep; ms from its exit to distlaunch's exit"
printf '%6s %6s %14s %14s\n' ranks hosts teardown_ms date_clock_ms
stamp_rank0='if [ $MLX_RANK = 0 ]; then sleep 1; '
for combo in "8 4" "32 8"; do
  # shellcheck disable=SC2086 # split "RANKS HOSTS" into $1 $2
  set -- $combo
  : > "$WORK/t"; : > "$WORK/td"
  i=0
  while [ $i -lt "$REPEATS" ]; do
    rm -f "$WORK/failed_at"
    "$DL" --ssh-config "$C/ssh_config" --hosts "$(hosts_csv "$2")" -n $(($1 / $2)) -- \
      sh -c "${stamp_rank0}date +%s%N | cut -c1-13 > $WORK/failed_at; exit 1; fi; exec sleep 100" \
      < /dev/null > "$WORK/out" 2>&1 && { echo "launch_startup.sh: error: the job should have failed" >&2; exit 1; }
    end=$(ms)
    echo $(( end - $(cat "$WORK/failed_at") )) >> "$WORK/td"
    rm -f "$WORK/failed_at"
    # shellcheck disable=SC2016 # $f and $ARGV are perl's
    perl -MTime::HiRes=time -e 'system(@ARGV); printf "%d\n", time * 1000' -- \
      "$DL" --ssh-config "$C/ssh_config" --hosts "$(hosts_csv "$2")" -n $(($1 / $2)) -- \
      sh -c "${stamp_rank0}exec perl -MTime::HiRes=time -e 'open my \$f, \">\", \$ARGV[0]; printf \$f \"%d\\n\", time * 1000; exit 1' $WORK/failed_at; fi; exec sleep 100" \
      < /dev/null > "$WORK/end" 2> "$WORK/out"
    echo $(( $(cat "$WORK/end") - $(cat "$WORK/failed_at") )) >> "$WORK/t"
    i=$((i + 1))
  done
  printf '%6s %6s %14s %14s\n' "$1" "$2" "$(median < "$WORK/t")" "$(median < "$WORK/td")"
done
