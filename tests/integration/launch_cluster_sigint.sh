# Ctrl-C (SIGINT) to distlaunch: forwarded, then cleanup; exit 130 and no
# rank process remains on any host.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 96$$"
"$DL" --ssh-config "$C/ssh_config" --timeout 60 --hosts "$(host_list 4)" -n 2 -- sh -c "$marker" 2>"$WORK/err" &
pid=$!
expect_eq "$(wait_procs "$marker" $((8 * PER_RANK)) 10)" $((8 * PER_RANK)) "rank processes running ($PER_RANK per rank)"
kill -INT $pid
rc=0
wait $pid || rc=$?
expect_eq "$rc" 130 "exit status"
expect_line "$WORK/err" "distlaunch: SIGINT: forwarded to every rank; again to kill them at once"
expect_eq "$(wait_procs "$marker" 0 5)" 0 "rank processes left"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 5)" 0 "host agents left"
echo PASS
