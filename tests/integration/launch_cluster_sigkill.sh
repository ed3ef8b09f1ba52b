# distlaunch itself killed with SIGKILL: its SSH connections close, each
# host's agent sees its stdin end and stops its ranks' process groups. Nothing remains on any host.
# Then one host's agent killed with SIGKILL (the OOM killer, a kill -9):
# its guard stops that host's ranks, distlaunch stops the others and fails
# the job. Nothing remains there either.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 95$$"
"$DL" --ssh-config "$C/ssh_config" --timeout 60 --hosts "$(host_list 4)" -n 2 -- sh -c "$marker" 2>/dev/null &
pid=$!
expect_eq "$(wait_procs "$marker" $((8 * PER_RANK)) 10)" $((8 * PER_RANK)) "rank processes running ($PER_RANK per rank)"
kill -KILL $pid
wait $pid 2>/dev/null || true
expect_eq "$(wait_procs "$marker" 0 3)" 0 "rank processes left 3 s after SIGKILL"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left after SIGKILL"

marker="sleep 96$$"
"$DL" --ssh-config "$C/ssh_config" --timeout 60 --hosts "$(host_list 4)" -n 2 -- sh -c "$marker" \
  2>"$WORK/err" &
pid=$!
expect_eq "$(wait_procs "$marker" $((8 * PER_RANK)) 10)" $((8 * PER_RANK)) "rank processes running ($PER_RANK per rank)"
expect_eq "$(count_procs distkit-rank-guard)" 4 "guards (one a host)"
on_host 1 pkill -KILL -f -- "$AGENT_PATTERN"  # h1's, in its PID namespace: not another test's
rc=0
wait $pid || rc=$?
expect_eq "$rc" 255 "distlaunch's status when a host agent is killed (a host lost)"
grep -q 'its host agent ended (status 137) before the rank did' "$WORK/err" ||
  { cat "$WORK/err"; fail "no line naming the killed agent"; }
expect_eq "$(wait_procs "$marker" 0 3)" 0 "rank processes left 3 s after an agent's SIGKILL"
expect_eq "$(wait_procs distkit-rank-guard 0 3)" 0 "guards left"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left"
echo PASS
