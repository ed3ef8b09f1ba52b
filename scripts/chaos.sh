#!/bin/sh
# Chaos runs for distlaunch on the test cluster (scripts/testcluster.sh):
# for N rounds (bounded in count and in total time) launch a job of 2 ranks
# per host across 4-8 hosts and inject one random fault at a random moment,
# then check what a user is promised:
#   - the right exit code and error line,
#   - no process of the job left on any host (counted in each host's own PID
#     namespace) within a bound measured from the fault,
#   - no temp file left on any host (each host gets a private TMPDIR),
#   - the run manifest complete (or, when distlaunch itself was killed or
#     never started the job, absent and no partial file).
# Faults: kill9-rank, sigstop-rank, cut (a host's link), stop-sshd (a host's
# sshd listener), kill9-distlaunch, kill9-agent (a host's agent). Choices
# come from a seeded generator; the seed is printed so a failing round
# reproduces. Ends with a summary
# table (rounds, faults by kind, failures, slowest cleanup per kind: from
# the fault to the last process gone for kill -9 of a rank or of
# distlaunch, and to the last process on the cut host for a cut (watched
# while distlaunch runs; polling adds up to ~0.2 s); from distlaunch's exit
# for sigstop-rank and stop-sshd, which distlaunch resolves itself).
#
# Usage: scripts/chaos.sh [--rounds N] [--hosts H] [--seed S] [--max-seconds T]
#                         [--faults a,b,...] [--build DIR] [--verbose]
#   --rounds N        rounds to run (default 20)
#   --hosts H         test hosts, 4..8 (default 4)
#   --seed S          generator seed (default: from the clock; printed)
#   --max-seconds T   start no round after T seconds (default 900)
#   --faults LIST     only these fault kinds (default: all six)
#   --build DIR       build dir holding apps/distlaunch (default ./build)
#   --verbose         show distlaunch's stderr and debug log of failed rounds
# Exit status: 0 no failure, 1 a round failed, 2 usage, 77 no test cluster
# possible here (not root, no namespaces).
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=20 NHOSTS=4 SEED="" MAX_SECONDS=900 BUILD="$SRC/build" VERBOSE=0
# Every fault kind, in the summary's order.
ALL_FAULTS="kill9-rank sigstop-rank cut stop-sshd kill9-distlaunch kill9-agent"
FAULTS=$ALL_FAULTS
usage() { sed -n '2,/^set -eu/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --rounds) ROUNDS=${2:?}; shift 2 ;;
    --hosts) NHOSTS=${2:?}; shift 2 ;;
    --seed) SEED=${2:?}; shift 2 ;;
    --max-seconds) MAX_SECONDS=${2:?}; shift 2 ;;
    --faults) FAULTS=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
    --build) BUILD=${2:?}; shift 2 ;;
    --verbose) VERBOSE=1; shift ;;
    -h|--help) usage ;;
    *) echo "chaos.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
case $ROUNDS$NHOSTS$MAX_SECONDS in *[!0-9]*) echo "chaos.sh: numbers expected" >&2; exit 2 ;; esac
{ [ "$NHOSTS" -ge 4 ] && [ "$NHOSTS" -le 8 ]; } || { echo "chaos.sh: --hosts must be 4..8" >&2; exit 2; }
for f in $FAULTS; do
  case " $ALL_FAULTS " in *" $f "*) ;;
    *) echo "chaos.sh: unknown fault '$f'" >&2; exit 2 ;; esac
done
[ -n "$SEED" ] || SEED=$(( $(date +%s) % 1000000 ))
DL="$BUILD/apps/distlaunch"
CLUSTER="$SRC/scripts/testcluster.sh"
[ -x "$DL" ] || { echo "chaos.sh: $DL not built" >&2; exit 77; }

NRANKS=$((2 * NHOSTS))
JOB_TICKS=50           # each rank prints a line every 0.1 s for 5 s
GRACE=1                # --grace
EXIT_WINDOW=2          # --exit-window
HB_LIMIT=5             # the ranks' heartbeat limit (LaunchOptions)
# Cleanup bounds (ms from the fault, or from distlaunch's exit when later):
BOUND_MS=$(( (GRACE + 3) * 1000 ))            # told to stop, or its frames end
BOUND_CUT_MS=$(( (HB_LIMIT + GRACE + 3) * 1000 ))  # no heartbeat on the cut host

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-chaos.XXXXXX")
C="$WORK/cluster"
UP=0
cleanup() {
  [ "$UP" = 1 ] && "$CLUSTER" down "$C" >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ms() { date +%s%3N; }
rc=0
"$CLUSTER" up "$NHOSTS" "$C" 2>"$WORK/up.log" >/dev/null || rc=$?
if [ "$rc" = 77 ]; then echo "chaos.sh: skipped: $(cat "$WORK/up.log")"; exit 77; fi
[ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; exit 1; }
UP=1
# A private TMPDIR per host (root's shell reads the host's own ~/.bashrc),
# so "no temp file left" sees this job's files only.
for k in $(seq 1 "$NHOSTS"); do
  mkdir -p "$C/h$k/tmp"
  echo "export TMPDIR=$C/h$k/tmp" > "$C/h$k/home/.bashrc"
done
HOSTS=$(seq -s, -f 'h%g' 1 "$NHOSTS")

# The schedule: one line per round "kind host rank delay_ms" from the seed.
awk -v seed="$SEED" -v n="$ROUNDS" -v h="$NHOSTS" -v kinds="$FAULTS" 'BEGIN {
  srand(seed); nk = split(kinds, kind, " ")
  for (i = 1; i <= n; i++) {
    k = kind[1 + int(rand() * nk)]; host = 1 + int(rand() * h)
    r = 2 * (host - 1) + int(rand() * 2); d = int(rand() * 3000)
    print k, host, r, d
  } }' > "$WORK/schedule"

echo "chaos: seed $SEED, $ROUNDS round(s), $NHOSTS hosts, $NRANKS ranks (rerun: scripts/chaos.sh --seed $SEED --rounds $ROUNDS --hosts $NHOSTS --faults $(echo "$FAULTS" | tr ' ' ','))"

on_host() { k=$1; shift; "$CLUSTER" exec "$C" "$k" -- "$@"; }
# The round's processes on host K: its ranks (their command lines carry TAG)
# and the host agents (every agent on the test hosts is this run's).
host_procs() { on_host "$1" pgrep -c -f "$2|[-]-host-agent" 2>/dev/null || true; }
procs() {  # processes of round TAG on all hosts [but host SKIP]
  t=0
  for k in $(seq 1 "$NHOSTS"); do
    [ "$k" = "${2:-0}" ] && continue
    n=$(host_procs "$k" "$1")
    t=$((t + ${n:-0}))
  done
  echo "$t"
}
temp_left() {
  for k in $(seq 1 "$NHOSTS"); do
    # shellcheck disable=SC2012 # names listed for a person to read
    [ -z "$(ls -A "$C/h$k/tmp")" ] || echo "h$k:$(ls -A "$C/h$k/tmp" | tr '\n' ' ')"
  done
}
# manifest_check FILE RC: complete manifest of a job that exited RC.
manifest_check() {
  perl -MJSON::PP -e '
    local $/; open my $f, "<", $ARGV[0] or die "no manifest\n";
    my $j = JSON::PP->new->decode(<$f>);
    die "schema\n" unless $j->{schema} eq "distkit.launch-manifest/2";
    die "exit_code $j->{exit_code} != $ARGV[1]\n" unless $j->{exit_code} == $ARGV[1];
    die "ranks\n" unless @{$j->{ranks}} == $ARGV[2];
    for my $r (@{$j->{ranks}}) {
      die "rank $r->{rank} has no outcome\n"
        unless exists $r->{exit_status} || exists $r->{signal} || exists $r->{error};
    }
    die "no end\n" unless $j->{end};
  ' "$1" "$2" "$NRANKS" 2>&1
}

fail() { problem="${problem:+$problem; }$*"; }  # adds to the round's problems

# The rank: notes its pid, prints JOB_TICKS lines. $0 carries the round tag.
RANK='echo $$ > "$OUT/pid.$DISTKIT_RANK"; i=0
while [ $i -lt '"$JOB_TICKS"' ]; do echo "$DISTKIT_RANK $i"; i=$((i + 1)); sleep 0.1; done'

START=$(now_ms)
round=0 failures=0
: > "$WORK/results"
while read -r kind host rank delay; do
  round=$((round + 1))
  if [ $(( ($(now_ms) - START) / 1000 )) -ge "$MAX_SECONDS" ]; then
    echo "chaos: time limit ($MAX_SECONDS s) reached after $((round - 1)) round(s)"
    break
  fi
  tag="chaos-$SEED-$round-$$"
  out="$WORK/r$round"
  mkdir -p "$out"
  "$DL" --ssh-config "$C/ssh_config" --hosts "$HOSTS" -n 2 --no-stdin --grace "$GRACE" \
    --exit-window "$EXIT_WINDOW" --timeout 30 --record "$out/rec" --debug-log "$out/debug.log" \
    --env "OUT=$out" \
    -- sh -c "$RANK" "$tag" > "$out/out" 2> "$out/err" &
  dl=$!
  sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
  problem=""
  what="$kind"
  case $kind in
    kill9-rank|sigstop-rank)
      what="$kind $rank on h$host"
      t=0
      while [ ! -s "$out/pid.$rank" ] && [ $t -lt 100 ]; do sleep 0.05; t=$((t + 1)); done
      sig=KILL; [ "$kind" = sigstop-rank ] && sig=STOP
      on_host "$host" kill -s $sig "$(cat "$out/pid.$rank" 2>/dev/null || echo 0)" ||
        fail "could not signal rank $rank" ;;
    cut|stop-sshd) what="$kind h$host"; "$CLUSTER" "$kind" "$C" "$host" ;;  # testcluster.sh's own verbs
    kill9-distlaunch)
      kill -KILL "$dl" 2>/dev/null || fail "distlaunch had exited before the fault" ;;
    kill9-agent)  # once a rank of the host runs, so does its agent
      what="kill9-agent on h$host"
      t=0
      while [ ! -s "$out/pid.$rank" ] && [ $t -lt 100 ]; do sleep 0.05; t=$((t + 1)); done
      on_host "$host" pkill -KILL -f -- '[-]-host-agent' || fail "no host agent on h$host to kill" ;;
  esac
  fault_at=$(now_ms)
  # distlaunch must end by itself: --timeout 30 is its own limit. A cut
  # host's processes are watched meanwhile: they must go on their own.
  # cut_gone_ms: when the cut host was first seen with none of them after
  # the last sighting of one (empty while some run).
  cut_gone_ms=""
  watch_cut() {
    [ "$kind" = cut ] || return 0
    n=$(host_procs "$host" "$tag")
    if [ "${n:-0}" != 0 ]; then cut_gone_ms=""
    elif [ -z "$cut_gone_ms" ]; then cut_gone_ms=$(( $(now_ms) - fault_at )); fi
  }
  while kill -0 "$dl" 2>/dev/null && [ $(( $(now_ms) - fault_at )) -lt 45000 ]; do
    watch_cut
    sleep 0.1
  done
  if kill -0 "$dl" 2>/dev/null; then
    fail "distlaunch still running 45 s after the fault"
    kill -KILL "$dl" 2>/dev/null || true
  fi
  code=0
  wait "$dl" || code=$?
  ended_at=$(now_ms)
  case $kind in
    cut) "$CLUSTER" uncut "$C" "$host" ;;
    stop-sshd) "$CLUSTER" start-sshd "$C" "$host" ;;
  esac

  # Exit code and message.
  expect_manifest=1
  a=$((2 * (host - 1))) b=$((2 * (host - 1) + 1))  # the ranks on the host
  case $kind in
    kill9-rank)
      want="distlaunch: error: rank $rank on h$host exited with status 137; stopping the other $((NRANKS - 1)) running rank(s)"
      { [ "$code" = 137 ] && grep -qxF "$want" "$out/err"; } || fail "exit $code, not 137 with '$want'" ;;
    sigstop-rank)
      want="distlaunch: error: job: ranks still running $EXIT_WINDOW s after another rank finished; stopping them (see --exit-window)"
      { [ "$code" = 1 ] && grep -qxF "$want" "$out/err"; } || fail "exit $code, not 1 with '$want'" ;;
    cut)
      if [ "$code" = 1 ]; then
        # Cut before distlaunch connected (the host is unreachable), or
        # during the preflight (the host failed the checks): nothing started.
        expect_manifest=0
        if grep -qxF "distlaunch: error: hosts: 1 of $NHOSTS host(s) unreachable; fix them or leave them out" "$out/err"; then
          what="$what (before connecting)"
        elif grep -qxF "distlaunch: error: preflight: 1 of $NHOSTS host(s) failed during the checks; check them, or leave them out" "$out/err"; then
          what="$what (during the preflight)"
        else
          fail "exit 1 without the unreachable-host or preflight line"
        fi
      else
        { [ "$code" = 255 ] &&
          grep -qE "^distlaunch: error: rank ($a|$b) on h$host lost its connection" "$out/err"; } ||
          fail "exit $code, not 255 with a lost connection on h$host"
      fi ;;
    stop-sshd)
      # Before distlaunch connected: refused; after: the open session goes on.
      if [ "$code" = 1 ]; then
        expect_manifest=0
        grep -qxF "distlaunch: error: hosts: 1 of $NHOSTS host(s) unreachable; fix them or leave them out" "$out/err" ||
          fail "exit 1 without the unreachable-host line"
        what="$what (before connecting)"
      elif [ "$code" = 0 ]; then
        lines=$(wc -l < "$out/out" | tr -d ' ')
        [ "$lines" = $((NRANKS * JOB_TICKS)) ] || fail "$lines output lines, not $((NRANKS * JOB_TICKS))"
        what="$what (after connecting)"
      else
        fail "exit $code, not 0 or 1"
      fi ;;
    kill9-distlaunch)
      expect_manifest=0
      [ "$code" = 137 ] || fail "exit $code, not 137" ;;
    kill9-agent)  # its guard stops its ranks, distlaunch the others
      { [ "$code" = 255 ] &&
        grep -qE "^distlaunch: error: rank ($a|$b) on h$host lost its connection \(its host agent ended \(status 137\)" "$out/err"; } ||
        fail "exit $code, not 255 with h$host's agent ended" ;;
  esac

  # Nothing left running, within the bound: from the fault when the fault
  # itself ends the job (kill9-*), else from distlaunch's exit; the cut
  # host on its own (it cannot be told), from the fault.
  from=$fault_at skip=0
  case $kind in kill9-*) ;; *) from=$ended_at ;; esac
  [ "$kind" = cut ] && skip=$host
  while [ "$(procs "$tag" "$skip")" != 0 ] && [ $(( $(now_ms) - from )) -lt $((BOUND_MS + 5000)) ]; do
    watch_cut
    sleep 0.1
  done
  gone_ms=$(( $(now_ms) - from ))
  if [ "$kind" = cut ]; then  # the cut host, up to its own bound
    while [ -z "$cut_gone_ms" ] && [ $(( $(now_ms) - fault_at )) -lt $((BOUND_CUT_MS + 5000)) ]; do
      watch_cut
      sleep 0.1
    done
  fi
  left=$(procs "$tag")
  [ "$left" = 0 ] || fail "$left process(es) left"
  [ "$left" != 0 ] || [ "$gone_ms" -le "$BOUND_MS" ] ||
    fail "processes gone after $gone_ms ms, bound $BOUND_MS ms (distlaunch ended $((ended_at - fault_at)) ms after the fault)"
  if [ "$kind" = cut ]; then
    watch_cut
    gone_ms=${cut_gone_ms:-0} from=$fault_at
    { [ -n "$cut_gone_ms" ] && [ "$cut_gone_ms" -le "$BOUND_CUT_MS" ]; } ||
      fail "the cut host's processes gone after ${cut_gone_ms:-?} ms, bound $BOUND_CUT_MS ms"
  fi
  # No temp file left (a rank's dir goes with it).
  t=0
  while [ -n "$(temp_left)" ] && [ $t -lt 30 ]; do sleep 0.1; t=$((t + 1)); done
  tl=$(temp_left)
  [ -z "$tl" ] || fail "temp files left: $tl"
  # The manifest: complete, or absent with no partial file.
  if [ "$expect_manifest" = 0 ]; then
    # shellcheck disable=SC2010 # names listed for a person to read
    extra=$(ls -A "$out/rec" 2>/dev/null | grep -v '^manifest\.json$' || true)
    [ -z "$extra" ] || fail "partial record files: $extra"
  fi
  if [ "$expect_manifest" = 1 ] || [ -e "$out/rec/manifest.json" ]; then
    m=$(manifest_check "$out/rec/manifest.json" "$code") || fail "manifest: $m"
  fi

  if [ -z "$problem" ]; then
    since="the fault"; [ "$from" = "$fault_at" ] || since="distlaunch's exit"
    printf 'round %d/%d: %s at %d ms: ok (exit %d, ranks gone %d ms after %s)\n' \
      "$round" "$ROUNDS" "$what" "$delay" "$code" "$gone_ms" "$since"
    echo "$kind ok $gone_ms" >> "$WORK/results"
  else
    failures=$((failures + 1))
    printf 'round %d/%d: %s at %d ms: FAILED: %s\n' "$round" "$ROUNDS" "$what" "$delay" "$problem"
    if [ "$VERBOSE" = 1 ]; then
      sed 's/^/  | /' "$out/err"
      # Where distlaunch spent the round: its debug log (--debug-log).
      [ ! -s "$out/debug.log" ] || sed 's/^/  debug | /' "$out/debug.log"
    fi
    echo "$kind failed $gone_ms" >> "$WORK/results"
    # A failed round may leave processes: clear them before the next round.
    for k in $(seq 1 "$NHOSTS"); do on_host "$k" pkill -KILL -f "$tag" 2>/dev/null || true; done
  fi
  rm -rf "$out"
done < "$WORK/schedule"

elapsed=$(( ($(now_ms) - START) / 1000 ))
echo
echo "chaos summary: seed $SEED, $NHOSTS hosts, $NRANKS ranks, ${elapsed} s"
awk -v kinds="$ALL_FAULTS" '{ n[$1]++; if ($2 == "failed") f[$1]++; if ($3 > m[$1]) m[$1] = $3; tn++; if ($2 == "failed") tf++ }
     END {
       printf "%-18s %7s %9s %18s\n", "fault", "rounds", "failures", "slowest cleanup"
       nk = split(kinds, order, " ")
       for (i = 1; i <= nk; i++) { k = order[i]; if (!(k in n)) continue
         printf "%-18s %7d %9d %15d ms\n", k, n[k], f[k], m[k] }
       printf "%-18s %7d %9d\n", "total", tn, tf }' "$WORK/results"
[ "$failures" = 0 ]
