# distlaunch itself killed with SIGKILL: its SSH connections close, each
# host's agent sees its stdin end and stops its ranks' process groups. Nothing remains on any host.
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
echo PASS
