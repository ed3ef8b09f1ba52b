#!/bin/sh
# Output load benchmark: every rank writes numbered lines as fast as it can
# (perl, block-buffered, so writes split lines anywhere) for S seconds while
# the launcher forwards them. Checks that no line is lost or torn (per-rank
# sequence numbers must be consecutive up to the count each rank reports on
# stderr at its end; every line must be whole) and reports the launcher's
# peak RSS, CPU use and forwarded throughput. Peer in the same run: Open MPI
# mpirun doing the same job on the same hosts (its lines are checked too;
# the ratio printed is of forwarded lines per wall-clock second).
#
# Usage: bench/launch_load.sh BUILD_DIR [--seconds S] [--hosts H]
#            [--ranks-per-host N] [--no-peer] [--max-rss-mb M]
#   defaults: 10 s, 8 hosts, 8 ranks per host (64 ranks), mpirun as peer
#   --max-rss-mb M   fail when distlaunch's peak RSS exceeds M MB
# Exit status: 0 ok, 1 lost/torn lines, a failed run or RSS over the bound,
# 2 usage, 77 no test cluster possible here.
set -eu

BUILD=${1:?usage: launch_load.sh BUILD_DIR [--seconds S] [--hosts H] [--ranks-per-host N] [--no-peer] [--max-rss-mb M]}
shift
SECONDS_=10 HOSTS=8 PER_HOST=8 PEER=1 MAX_RSS_MB=0
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) SECONDS_=${2:?}; shift 2 ;;
    --hosts) HOSTS=${2:?}; shift 2 ;;
    --ranks-per-host) PER_HOST=${2:?}; shift 2 ;;
    --no-peer) PEER=0; shift ;;
    --max-rss-mb) MAX_RSS_MB=${2:?}; shift 2 ;;
    *) echo "launch_load.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
SRC=$(cd "$(dirname "$0")/.." && pwd)
DL="$BUILD/apps/distlaunch"
CLUSTER="$SRC/scripts/testcluster.sh"
TIME=/usr/bin/time
[ -x "$DL" ] || { echo "launch_load.sh: error: $DL not built; build target distlaunch" >&2; exit 1; }
[ -x "$TIME" ] || { echo "launch_load.sh: skipped: no $TIME (apt-get install time)" >&2; exit 77; }
if [ "$PEER" = 1 ] && ! command -v mpirun >/dev/null 2>&1; then
  echo "launch_load.sh: error: mpirun missing (scripts/install-deps.sh --bench), or use --no-peer" >&2
  exit 1
fi
RANKS=$((HOSTS * PER_HOST))

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-launch-load.XXXXXX")
C="$WORK/cluster"
trap '"$CLUSTER" down "$C" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
rc=0
"$CLUSTER" up "$HOSTS" "$C" >"$WORK/up.log" 2>&1 || rc=$?
if [ "$rc" = 77 ]; then echo "launch_load.sh: skipped: $(tail -n 1 "$WORK/up.log")"; exit 77; fi
[ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; exit 1; }
hosts_csv=$(seq 1 "$HOSTS" | sed 's/^/h/' | paste -sd, -)

# The writer: "<rank> <seq> <64 x>" lines until the time is up, then
# "done <rank> <count>" on stderr. Rank from distlaunch or from mpirun.
WRITER='use Time::HiRes qw(time);
my $r = $ENV{DISTKIT_RANK} // $ENV{OMPI_COMM_WORLD_RANK};
my $end = time + $ARGV[0]; my $i = 0; my $pad = "x" x 64;
while (time < $end) { for (1 .. 500) { print "$r $i $pad\n"; $i++ } }
close STDOUT; print STDERR "done $r $i\n";'

# check NAME: reads the forwarded lines on stdin, the done lines from
# $WORK/err.NAME; prints "lines torn lost".
check() {
  awk -v ranks="$RANKS" -v errf="$WORK/err.$1" '
    BEGIN { pad = sprintf("%64s", ""); gsub(/ /, "x", pad) }
    $0 ~ /^[0-9]+ [0-9]+ x+$/ && $3 == pad && $1 < ranks {
      if ($2 != next_[$1] + 0) gap++
      next_[$1] = $2 + 1; n++; next }
    { torn++ }
    END {
      while ((getline l < errf) > 0) if (split(l, f, " ") == 3 && f[1] == "done") done[f[2]] = f[3]
      for (r = 0; r < ranks; r++) {
        if (!(r in done)) { lost += 1; missing++ }
        else if (next_[r] + 0 != done[r]) lost += done[r] - next_[r]
      }
      print n + 0, torn + 0, lost + gap + 0, missing + 0 }'
}

# run NAME CMD...: the launcher under /usr/bin/time, its stdout into check.
run() {
  name=$1
  shift
  # (the pipeline runs in a subshell: its exit code goes through a file)
  { rc=0; "$TIME" -f '%M %U %S %e' -o "$WORK/time.$name" "$@" 2> "$WORK/err.$name" || rc=$?
    echo "$rc" > "$WORK/rc.$name"; } | check "$name" > "$WORK/check.$name"
  rc=$(cat "$WORK/rc.$name")
  [ "$rc" = 0 ] || { tail -n 5 "$WORK/err.$name" >&2; echo "launch_load.sh: $name exited $rc" >&2; exit 1; }
  read -r lines torn lost missing < "$WORK/check.$name"
  read -r rss_kb user sys wall <<EOF2
$(tail -n 1 "$WORK/time.$name")
EOF2
  cpu=$(awk -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN { printf "%.0f", 100 * (u + s) / w }')
  mb=$(awk -v n="$lines" -v w="$wall" 'BEGIN { printf "%.1f", n * 72 / w / 1e6 }')
  klps=$(awk -v n="$lines" -v w="$wall" 'BEGIN { printf "%.0f", n / w / 1000 }')
  printf '%-11s %10d %6d %6d %8d %8.1f %6s %8s %8s\n' "$name" "$lines" "$torn" "$lost" \
    $((rss_kb / 1024)) "$wall" "$cpu%" "$mb" "$klps"
  echo "$name $lines $torn $lost $missing $rss_kb $wall" >> "$WORK/summary"
}

echo "# launcher output load: $RANKS ranks on $HOSTS test hosts, each writing 72-byte numbered lines as fast as it can for $SECONDS_ s"
peer_version=""
[ "$PEER" = 0 ] || peer_version=" | $(mpirun --version 2>&1 | head -n 1)"
echo "# $("$DL" --version)$peer_version"
echo "# this machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg); rss/cpu are the launcher process's own (/usr/bin/time)"
printf '%-11s %10s %6s %6s %8s %8s %6s %8s %8s\n' launcher lines torn lost rss_MB wall_s cpu MB/s klines/s
: > "$WORK/summary"
run distlaunch "$DL" --ssh-config "$C/ssh_config" --hosts "$hosts_csv" -n "$PER_HOST" --no-stdin \
  --timeout $((SECONDS_ + 120)) -- perl -e "$WRITER" "$SECONDS_"
if [ "$PEER" = 1 ]; then
  net=$("$CLUSTER" addr "$C" 1 | sed 's/\.[0-9]*$/.0\/24/')
  seq 1 "$HOSTS" | sed "s/^\(.*\)\$/h\1 slots=$PER_HOST/" > "$WORK/mpihosts"
  run mpirun mpirun --allow-run-as-root --oversubscribe --bind-to none \
    --hostfile "$WORK/mpihosts" -np "$RANKS" --mca plm_rsh_args "-F $C/ssh_config" \
    --mca oob_tcp_if_include "$net" --mca btl_tcp_if_include "$net" \
    perl -e "$WRITER" "$SECONDS_"
  # Forwarded lines per second of wall time (mpirun applies no backpressure:
  # its ranks write more in the same time and it forwards them afterwards).
  awk '{ r[$1] = $2 / $7 } END { if (r["mpirun"] > 0)
    printf "# forwarding rate ratio distlaunch/mpirun (lines per wall second): %.2f\n", r["distlaunch"] / r["mpirun"] }' "$WORK/summary"
fi

# Verdict: distlaunch must lose or tear nothing (mpirun is only reported).
read -r _ lines torn lost missing rss_kb _ < "$WORK/summary"
status=0
{ [ "$torn" = 0 ] && [ "$lost" = 0 ]; } || { echo "FAIL: distlaunch tore $torn and lost $lost line(s) ($missing rank(s) without a done line)"; status=1; }
[ "$lines" -gt 0 ] || { echo "FAIL: no line forwarded"; status=1; }
if [ "$MAX_RSS_MB" -gt 0 ] && [ $((rss_kb / 1024)) -gt "$MAX_RSS_MB" ]; then
  echo "FAIL: distlaunch peak RSS $((rss_kb / 1024)) MB, bound $MAX_RSS_MB MB"; status=1
fi
exit $status
