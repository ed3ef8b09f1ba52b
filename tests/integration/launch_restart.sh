# Restarts and health checks for services, on the test cluster:
# --restart on-failure --max-restarts 2 starts a job whose rank exits 1
# three times in all, then exits 1; a health command that starts failing
# stops the job as a stall (124), which --restart on-stall restarts; a
# --health-url served by rank 0 that stops answering (the server frozen
# with SIGSTOP, as a hung mlx_lm.server) stops the job with 124 and
# leaves nothing. The manifest records each restart with its reason.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 2

rc=0
dl --hosts "$(host_list 2)" --no-stdin --restart on-failure --max-restarts 2 \
  --record "$WORK/rec1" -- \
  sh -c "[ \$MLX_RANK = 0 ] && echo attempt >> '$WORK/attempts' && exit 1; sleep 30" \
  2>"$WORK/err1" || rc=$?
expect_eq "$rc" 1 "on-failure: exit status"
expect_eq "$(wc -l < "$WORK/attempts" | tr -d ' ')" 3 "on-failure: attempts"
expect_line "$WORK/err1" "distlaunch: restarting the job (restart 1 of 2) in 1 s, after: rank 0 on h1 exited with status 1; stopping the other 1 running rank(s)"
expect_line "$WORK/err1" "distlaunch: restarting the job (restart 2 of 2) in 2 s, after: rank 0 on h1 exited with status 1; stopping the other 1 running rank(s)"
expect_eq "$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print(m["exit_code"], [r["exit_code"] for r in m["restarts"]])' "$WORK/rec1/manifest.json")" \
  "1 [1, 1]" "on-failure: the manifest's restarts"
expect_eq "$(count_procs "sleep 30")" 0 "on-failure: rank processes left"

# A health command that starts failing: a stall, restarted once, then 124.
touch "$WORK/healthy"
(sleep 3; rm -f "$WORK/healthy") &
rc=0
dl --hosts "$(host_list 2)" --no-stdin --restart on-stall --max-restarts 1 --grace 1 \
  --health-cmd "test -e '$WORK/healthy'" --health-interval 1 --record "$WORK/rec2" -- \
  sleep 31 2>"$WORK/err2" || rc=$?
expect_eq "$rc" 124 "health command: exit status"
expect_eq "$(grep -c "^distlaunch: error: job: the health check failed ('test -e '$WORK/healthy'' exited with status 1); stopping every rank$" "$WORK/err2")" 2 \
  "health command: failures reported"
grep -q "^distlaunch: restarting the job (restart 1 of 1) in 1 s, after: job: the health check failed" "$WORK/err2" ||
  { cat "$WORK/err2"; fail "health command: no restart line"; }
expect_eq "$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print(len(m["restarts"]), sorted({s["why"] for r in m["restarts"] for s in r["stacks"]}))' "$WORK/rec2/manifest.json")" \
  "1 ['health check']" "health command: the manifest's restart and its stacks"
expect_eq "$(count_procs "sleep 31")" 0 "health command: rank processes left"

# --health-url served by rank 0; the server freezes: 124, nothing left.
port=18180
(sleep 4; on_host 1 pkill -STOP -f "http.server $port") &
rc=0
dl --hosts "$(host_list 2)" --no-stdin --grace 1 --health-url "http://127.0.0.1:$port/" \
  --health-interval 1 -- \
  sh -c "if [ \$MLX_RANK = 0 ]; then exec python3 -m http.server $port --bind 127.0.0.1; else sleep 32; fi" \
  >/dev/null 2>"$WORK/err3" || rc=$?
expect_eq "$rc" 124 "health URL: exit status"
grep -q "^distlaunch: error: job: the health check failed ('curl -fsS -o /dev/null --max-time 1 http://127.0.0.1:$port/' " "$WORK/err3" ||
  { cat "$WORK/err3"; fail "health URL: no failure line"; }
expect_eq "$(count_procs "http.server $port")" 0 "health URL: server processes left"
expect_eq "$(count_procs "sleep 32")" 0 "health URL: rank processes left"
echo PASS
