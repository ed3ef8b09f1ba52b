# Stalls of unmodified programs on the test cluster: two ranks blocked
# forever in a named C function (no output, no I/O), then two spinning in
# one, are caught by --stall-timeout 5: the report says blocked or
# spinning, both stacks name the function, the job exits 124 and nothing
# is left. --timeout takes the stacks too, and SIGQUIT prints every
# rank's stacks while the job goes on. A
# Python rank hung in a function shows it (faulthandler, as the test
# hosts have no py-spy). Slow progress is launch_stall_progress.sh's.
. "$(dirname "$0")/launch_lib.sh"
command -v gdb >/dev/null || command -v eu-stack >/dev/null ||
  { echo "SKIP: no stack tool here (scripts/install-deps.sh installs gdb)"; exit 77; }
cc -O1 -g -o "$WORK/stuck_rank" "$DATA/stuck_rank.c"
cluster_up 2

for mode in blocked spinning; do
  rc=0
  dl --hosts "$(host_list 2)" --no-stdin --stall-timeout 5 --record "$WORK/rec-$mode" \
    -- "$WORK/stuck_rank" $mode 2>"$WORK/$mode" || rc=$?
  expect_eq "$rc" 124 "$mode: exit status"
  expect_line "$WORK/$mode" "distlaunch: error: job: no rank made progress for 5 s (--stall-timeout); stopping every rank"
  for r in 0 1; do
    grep -qE "^distlaunch:   rank $r on h$((r + 1)): no output yet, in the last [0-9.]+ s: I/O [0-9.]+ [KMi]*B, CPU [0-9.]+ s \\($mode\\)$" \
      "$WORK/$mode" || { cat "$WORK/$mode"; fail "$mode: no report line for rank $r"; }
    expect_line "$WORK/$mode" "distlaunch: stacks of rank $r on h$((r + 1)) (stall):"
  done
  name=$(echo $mode | sed 's/ing$//; s/spinn/spinning/')
  expect_eq "$(grep -c "distkit_test_${name}_here" "$WORK/$mode")" 2 "$mode: stacks naming the function"
  expect_eq "$(count_procs "$WORK/stuck_rank")" 0 "$mode: rank processes left"
  expect_eq "$(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print(m["exit_code"], sorted((s["rank"], s["why"], sys.argv[2] in s["text"]) for s in m["stacks"]))' \
    "$WORK/rec-$mode/manifest.json" "distkit_test_${name}_here")" \
    "124 [(0, 'stall', True), (1, 'stall', True)]" "$mode: the manifest's stacks"
done

# SIGQUIT: every rank's stacks, and the job goes on until SIGTERM.
"$DL" --ssh-config "$C/ssh_config" --hosts "$(host_list 2)" --no-stdin -- "$WORK/stuck_rank" blocked \
  2>"$WORK/quit" &
pid=$!
expect_eq "$(wait_procs "$WORK/stuck_rank" 2 10)" 2 "ranks running"
kill -QUIT $pid
t=0
while [ "$(grep -c 'distkit_test_blocked_here' "$WORK/quit")" -lt 2 ] && [ $t -lt 200 ]; do
  sleep 0.1; t=$((t + 1))
done
expect_eq "$(grep -c 'distkit_test_blocked_here' "$WORK/quit")" 2 "stacks after SIGQUIT"
expect_line "$WORK/quit" "distlaunch: stacks of rank 0 on h1 (SIGQUIT):"
expect_eq "$(count_procs "$WORK/stuck_rank")" 2 "ranks still running after SIGQUIT"
kill -TERM $pid
rc=0
wait $pid || rc=$?
expect_eq "$rc" 143 "exit status after SIGTERM"
expect_eq "$(count_procs "$WORK/stuck_rank")" 0 "rank processes left after SIGTERM"

# --timeout takes the stacks before it stops the job (exit 1 as always).
rc=0
dl --hosts h1 --no-stdin --timeout 2 -- "$WORK/stuck_rank" blocked 2>"$WORK/timeout" || rc=$?
expect_eq "$rc" 1 "timeout: exit status"
expect_line "$WORK/timeout" "distlaunch: stacks of rank 0 on h1 (--timeout):"
expect_eq "$(grep -c 'distkit_test_blocked_here' "$WORK/timeout")" 1 "timeout: stack naming the function"
expect_eq "$(count_procs "$WORK/stuck_rank")" 0 "timeout: rank processes left"

# A Python rank hung in a function: faulthandler names it on the rank's stderr.
cat > "$WORK/hung.py" <<'PY'
import threading
def distkit_test_python_hung_here():
    threading.Event().wait()
distkit_test_python_hung_here()
PY
rc=0
dl --hosts h1 --no-stdin --stall-timeout 3 -- python3 "$WORK/hung.py" 2>"$WORK/py" || rc=$?
expect_eq "$rc" 124 "python: exit status"
grep -q "line 3 in distkit_test_python_hung_here" "$WORK/py" || { cat "$WORK/py"; fail "python: no Python frame"; }
expect_eq "$(count_procs "$WORK/hung.py")" 0 "python: rank processes left"
echo PASS
