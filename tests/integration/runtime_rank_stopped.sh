# A rank stopped (SIGSTOP) on its host makes the ranks on the other hosts
# fail after DISTKIT_TIMEOUT_MS instead of hanging. (Which rank the error
# names is best effort with 3 ranks: the survivors also wait on each other.)
. "$(dirname "$0")/runtime_lib.sh"
cluster_up 3
TIMEOUT_MS=1500
for r in 0 1 2; do start_rank $r -t all_reduce -b 4M -e 4M -n 1000000 -w 0 -c 0; done
sleep 2
pid=$(distbench_pid 3)
[ -n "$pid" ] || fail "no distbench on h3"
bash "$TC" exec "$CL" 3 -- kill -STOP "$pid"
for r in 0 1; do
  st=$(wait_rank $r 6)
  [ "$st" = 1 ] || fail "rank $r: exit status $st, expected 1 within 6 s"
done
bash "$TC" exec "$CL" 3 -- kill -KILL "$pid"
resume_launcher 2
[ "$(wait_rank 2 5)" != running ] || fail "rank 2 was not reaped after SIGKILL"
addr=$(sed -n 3p "$CL/addrs")
for r in 0 1; do
  grep -q "^distbench: error: rank [0-2] (10\.[0-9.]*): no progress for 1500 ms during all_reduce" \
    "$WORK/err.$r" || { cat "$WORK/err.$r" >&2; fail "rank $r: no stall error"; }
done
grep -hq "rank 2 ($addr): no progress" "$WORK/err.0" "$WORK/err.1" &&
  echo "ok: both surviving ranks timed out, naming rank 2" ||
  echo "ok: both surviving ranks timed out (the blame landed on a survivor)"
