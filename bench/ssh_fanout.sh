#!/bin/sh
# Fan-out benchmark: wall time to run one command (`true`) on 1, 4, 8 and 16
# test hosts with distkit's SSH transport (tests/unit/ssh/ssh_tool: connect
# every host with libssh2, one channel each, in parallel) next to the same
# work done by `pdsh -R ssh` (one ssh process per host), measured in the
# same run, interleaved, on the same test cluster (scripts/testcluster.sh).
# Both do the full job: TCP connect, key exchange, host-key check, public-key
# auth, exec, exit status. A second table runs 5 commands in a row on 16
# hosts, where distkit reuses each host's session and pdsh reconnects.
#
# Usage: bench/ssh_fanout.sh BUILD_DIR [REPEATS]   (root, Linux; default 7)
# Prints a `#` preamble, one row per host count with the medians, the ratio
# distkit/pdsh and distkit's time relative to one host. Exit status 1 when a
# run fails, 77 when the test cluster cannot be brought up here.
set -eu

BUILD=${1:?usage: ssh_fanout.sh BUILD_DIR [REPEATS]}
REPEATS=${2:-7}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TOOL="$BUILD/tests/unit/ssh/ssh_tool"
CLUSTER="$SRC/scripts/testcluster.sh"
[ -x "$TOOL" ] || { echo "ssh_fanout.sh: error: $TOOL not built; build target ssh_tool" >&2; exit 1; }
command -v pdsh >/dev/null 2>&1 || { echo "ssh_fanout.sh: error: pdsh missing; run scripts/install-deps.sh --bench" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-ssh-bench.XXXXXX")
C="$WORK/cluster"
trap '"$CLUSTER" down "$C" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
rc=0
"$CLUSTER" up 16 "$C" 2>"$WORK/up.log" || rc=$?
[ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; exit "$rc"; }

hosts_csv() { seq 1 "$1" | sed 's/^/h/' | paste -sd, -; }
ms() { date +%s%N | cut -c1-13; }

# run_distkit N / run_pdsh N: one timed run, prints milliseconds.
run_distkit() {
  t0=$(ms)
  "$TOOL" --ssh-config "$C/ssh_config" --hosts "$(hosts_csv "$1")" -- true > "$WORK/out" ||
    { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}
run_pdsh() {
  t0=$(ms)
  PDSH_SSH_ARGS_APPEND="-F $C/ssh_config" pdsh -R ssh -f 32 -w "$(hosts_csv "$1")" true \
    > "$WORK/out" 2>&1 || { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}
# Five commands in a row on 16 hosts: distkit keeps one session per host
# (--repeat 5), pdsh connects again for each command.
run_distkit_seq() {
  t0=$(ms)
  "$TOOL" --ssh-config "$C/ssh_config" --hosts "$(hosts_csv 16)" --repeat 5 -- true > "$WORK/out" ||
    { cat "$WORK/out" >&2; exit 1; }
  echo $(( $(ms) - t0 ))
}
run_pdsh_seq() {
  t0=$(ms)
  for _ in 1 2 3 4 5; do
    PDSH_SSH_ARGS_APPEND="-F $C/ssh_config" pdsh -R ssh -f 32 -w "$(hosts_csv 16)" true \
      > "$WORK/out" 2>&1 || { cat "$WORK/out" >&2; exit 1; }
  done
  echo $(( $(ms) - t0 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Warm-up (page cache, sshd first fork) not counted.
run_distkit 16 >/dev/null
run_pdsh 16 >/dev/null

for n in 1 4 8 16 seq; do : > "$WORK/d$n"; : > "$WORK/p$n"; done
i=0
while [ $i -lt "$REPEATS" ]; do
  for n in 1 4 8 16; do
    run_distkit $n >> "$WORK/d$n"
    run_pdsh $n >> "$WORK/p$n"
  done
  run_distkit_seq >> "$WORK/dseq"
  run_pdsh_seq >> "$WORK/pseq"
  i=$((i + 1))
done

echo "# distkit ssh fan-out vs pdsh -R ssh ($(pdsh -V 2>&1 | head -1)), libssh2 $(pkg-config --modversion libssh2 2>/dev/null || echo '?')"
echo "# command: true; hosts: scripts/testcluster.sh (sshd per network namespace, one machine, $(nproc) cores)"
echo "# medians of $REPEATS interleaved runs, wall time of the whole tool run in ms"
printf '%6s %12s %10s %14s %16s\n' hosts distkit_ms pdsh_ms distkit/pdsh vs_1_host
d1=$(median < "$WORK/d1")
for n in 1 4 8 16; do
  d=$(median < "$WORK/d$n")
  p=$(median < "$WORK/p$n")
  printf '%6s %12s %10s %14s %16s\n' "$n" "$d" "$p" \
    "$(awk -v a="$d" -v b="$p" 'BEGIN {printf "%.2f", a / b}')" \
    "$(awk -v a="$d" -v b="$d1" 'BEGIN {printf "%.2f", a / b}')"
done
ds=$(median < "$WORK/dseq")
ps=$(median < "$WORK/pseq")
echo "# 5 commands in a row on 16 hosts (distkit reuses its sessions; pdsh reconnects)"
printf '%6s %12s %10s %14s\n' hosts distkit_ms pdsh_ms distkit/pdsh
printf '%6s %12s %10s %14s\n' 16x5 "$ds" "$ps" "$(awk -v a="$ds" -v b="$ps" 'BEGIN {printf "%.2f", a / b}')"
