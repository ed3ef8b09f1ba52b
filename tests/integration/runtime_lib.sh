# Shared helpers for the runtime integration tests (sourced, POSIX sh): one
# distbench rank process per test host (network namespaces from
# scripts/testcluster.sh), started with the MLX ring variables and a job
# secret as distlaunch would give them. Each test brings up its own cluster
# in a temporary directory and always tears it down.
# The cluster plumbing (cluster_up N, WORK, teardown) is cluster_lib.sh's;
# CL and TC name its cluster dir and script here.
: "${DISTKIT_BUILD_DIR:=${DISTKIT_SOURCE_DIR:-$(pwd)}/build}"
CLUSTER_PREFIX=runtime-it
. "$(dirname "$0")/cluster_lib.sh"
DISTBENCH=$BUILD/apps/distbench
CL=$C
TC=$CLUSTER

[ -x "$DISTBENCH" ] || { echo "SKIP: $DISTBENCH not built"; exit 77; }

# At exit, before the cluster goes: every process started for a rank.
cluster_extra_cleanup() { kill_ranks; }

# After cluster_up N: WORK/hostfile.json (one rank per host) and WORK/secret.
cluster_after_up() {
  # Ports inside the hosts' own network namespaces: no clash with the
  # machine's or other clusters' ports.
  sh "$SRC/scripts/testcluster/ring_hostfile.sh" "$(wc -l < "$CL/addrs")" $((30000 + $$ % 20000)) \
    < "$CL/addrs" > "$WORK/hostfile.json"
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$WORK/secret"
  chmod 600 "$WORK/secret"
}

# start_rank R ARGS...: distbench as rank R on host R+1, in the background;
# stdout/stderr in WORK/out.R / WORK/err.R, exit status in WORK/status.R.
start_rank() {
  r=$1
  shift
  (
    set +e
    bash "$TC" exec "$CL" $((r + 1)) -- env MLX_RANK="$r" MLX_HOSTFILE="$WORK/hostfile.json" \
      DISTKIT_SECRET_FILE="$WORK/secret" ${TIMEOUT_MS:+DISTKIT_TIMEOUT_MS=$TIMEOUT_MS} \
      "$DISTBENCH" "$@" >"$WORK/out.$r" 2>"$WORK/err.$r"
    echo $? > "$WORK/status.$r.tmp"
    mv "$WORK/status.$r.tmp" "$WORK/status.$r"
  ) </dev/null >/dev/null 2>&1 &
  # The subshell holds none of ctest's pipes: a straggler (e.g. an nsenter
  # left stopped by a SIGSTOP test) can never keep ctest waiting.
  echo $! > "$WORK/sub.$r"
}

# descendants PID: PID's children, grandchildren, ... (by parent pid).
descendants() {
  for c in $(pgrep -P "$1" 2>/dev/null); do
    echo "$c"
    descendants "$c"
  done
}

# kill_ranks: SIGKILL every process this test started for its ranks (the
# subshells of start_rank and everything below them). KILL also ends
# stopped processes, so nothing of the test outlives it.
kill_ranks() {
  for f in "$WORK"/sub.*; do
    [ -f "$f" ] || continue
    s=$(cat "$f")
    for p in $(descendants "$s") "$s"; do kill -KILL "$p" 2>/dev/null || true; done
  done
}

# resume_launcher R: nsenter stops itself when the rank it runs is stopped
# (SIGSTOP), and would then never reap it: continue the processes between
# this script and rank R (found by parent pid, nothing else is touched).
resume_launcher() {
  for p in $(pgrep -P "$(cat "$WORK/sub.$1")"); do
    kill -CONT "$p" 2>/dev/null || true
    for q in $(pgrep -P "$p"); do kill -CONT "$q" 2>/dev/null || true; done
  done
}

# wait_rank R SECONDS: exit status of rank R, or "running" after SECONDS.
wait_rank() {
  i=0
  while [ ! -f "$WORK/status.$1" ]; do
    [ "$i" -ge $(($2 * 10)) ] && { echo running; return; }
    sleep 0.1
    i=$((i + 1))
  done
  cat "$WORK/status.$1"
}

# distbench_pid K: pid of the distbench on host K (its own PID namespace, so
# only the process this test started there).
distbench_pid() {
  bash "$TC" exec "$CL" "$1" -- pgrep -x distbench
}
