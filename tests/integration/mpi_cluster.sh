# --backend mpi through Open MPI's real mpirun on 4 sshd test hosts (its
# rsh agent reads distlaunch's --ssh-config): 8 ranks, 2 per host, each
# with Open MPI's rank variables and distkit's shared ones; rank 5's exit 3
# is distlaunch's status, with no rank or orted left on any host and no
# generated hostfile left here; SIGTERM to distlaunch alone (a script's
# kill) stops mpirun and its ranks too: status 143, nothing left; and so
# does Ctrl-C, which reaches distlaunch and mpirun (one process group): 130.
CLUSTER_PREFIX=distkit-mpi-test
. "$(dirname "$0")/launch_lib.sh"
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun (scripts/install-deps.sh --slurm)"; exit 77; }
cluster_up 4
# Open MPI refuses root unless told (CI runs as root).
if [ "$(id -u)" = 0 ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fi
mkdir -p "$WORK/tmp"
TMPDIR="$WORK/tmp"
export TMPDIR

dl --backend mpi --hosts h1,h2,h3,h4 -n 2 --env K=V -- sh -c \
  'echo "$OMPI_COMM_WORLD_RANK $OMPI_COMM_WORLD_LOCAL_RANK $OMPI_COMM_WORLD_SIZE $DISTKIT_WORLD_SIZE $K $(hostname)"' \
  > "$WORK/got" 2> "$WORK/err" || { cat "$WORK/err"; fail "distlaunch --backend mpi failed"; }
printf '%s\n' "0 0 8 8 V h1" "1 1 8 8 V h1" "2 0 8 8 V h2" "3 1 8 8 V h2" \
  "4 0 8 8 V h3" "5 1 8 8 V h3" "6 0 8 8 V h4" "7 1 8 8 V h4" > "$WORK/want"
sort -n "$WORK/got" > "$WORK/got.sorted"
cmp -s "$WORK/want" "$WORK/got.sorted" || {
  echo "--- want"; cat "$WORK/want"; echo "--- got"; cat "$WORK/got.sorted"; fail "ranks through mpirun"
}
echo "ok: 8 ranks through mpirun"

t0=$(now_ms)
rc=0
dl --backend mpi --hosts h1,h2,h3,h4 -n 2 -- sh -c \
  '[ "$OMPI_COMM_WORLD_RANK" != 5 ] || { sleep 0.5; exit 3; }; exec sleep 300' \
  > "$WORK/out2" 2> "$WORK/err2" || rc=$?
[ "$rc" = 3 ] || { cat "$WORK/err2"; fail "exit status $rc, not rank 5's 3"; }
expect_eq "$(wait_procs 'sleep 300' 0 10)" 0 "ranks left on the hosts"
expect_eq "$(wait_procs '[o]rted' 0 10)" 0 "orted left on the hosts"
expect_eq "$(find "$WORK/tmp" -name 'distlaunch-mpi-*' | wc -l)" 0 "generated hostfiles left"
echo "ok: exit 3 in $(($(now_ms) - t0)) ms, nothing left"

# stop_case WHAT RC TARGET KILL...: 8 ranks sleeping through mpirun; once
# they run, KILL... is sent to TARGET's pid ($dl_pid: distlaunch's, which
# setsid makes its process group's too); distlaunch must exit RC and leave
# nothing behind.
stop_case() {
  what=$1 want=$2 target=$3
  shift 3
  setsid "$DL" --ssh-config "$C/ssh_config" --backend mpi --hosts h1,h2,h3,h4 -n 2 -- sleep 301 \
    > "$WORK/out.stop" 2> "$WORK/err.stop" &
  dl_pid=$!
  expect_eq "$(wait_procs '^sleep 301' 8 20)" 8 "ranks running ($what)"
  t0=$(now_ms)
  "$@" "$target$dl_pid"
  rc=0
  wait "$dl_pid" || rc=$?
  [ "$rc" = "$want" ] || { cat "$WORK/err.stop"; fail "exit status $rc after $what, not $want"; }
  expect_eq "$(wait_procs '^sleep 301' 0 10)" 0 "ranks left after $what"
  expect_eq "$(wait_procs '[o]rted' 0 10)" 0 "orted left after $what"
  expect_eq "$(pgrep -c -f '^mpirun .*sleep 301' || true)" 0 "mpirun left after $what"
  expect_eq "$(find "$WORK/tmp" -name 'distlaunch-mpi-*' | wc -l)" 0 "hostfiles left after $what"
  echo "ok: $what stopped everything in $(($(now_ms) - t0)) ms"
}
# A script's kill reaches distlaunch alone; Ctrl-C reaches its whole
# process group, mpirun too (procps kill: dash's builtin takes no group).
stop_case SIGTERM 143 "" kill -TERM
stop_case Ctrl-C 130 - env kill -INT --
echo PASS
