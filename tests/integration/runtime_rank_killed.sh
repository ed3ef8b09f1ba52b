# A rank killed (SIGKILL) on its host makes the ranks on the other hosts
# fail promptly with an error naming it, instead of hanging.
. "$(dirname "$0")/runtime_lib.sh"
cluster_up 3
TIMEOUT_MS=3000
for r in 0 1 2; do start_rank $r -t all_reduce -b 4M -e 4M -n 1000000 -w 0 -c 0; done
sleep 2
pid=$(distbench_pid 3)
[ -n "$pid" ] || fail "no distbench on h3"
bash "$TC" exec "$CL" 3 -- kill -KILL "$pid"
for r in 0 1; do
  st=$(wait_rank $r 6)
  [ "$st" = 1 ] || fail "rank $r: exit status $st, expected 1 within 6 s"
done
addr=$(sed -n 3p "$CL/addrs")
grep -hq "^distbench: error: rank 2 ($addr): connection \(closed\|reset\) during all_reduce" \
  "$WORK/err.0" "$WORK/err.1" || { cat "$WORK/err.0" "$WORK/err.1" >&2; fail "no error naming rank 2"; }
echo "ok: both surviving ranks failed, naming rank 2"
