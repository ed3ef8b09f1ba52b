# One of 8 ranks on 4 hosts exits 3: distlaunch exits 3 after one line naming
# rank, host and why, and no rank process remains on any host; with the host
# agent (the default here) and with a channel per rank.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 97$$"
rc=0
dl --hosts "$(host_list 4)" -n 2 -- \
  sh -c "if [ \$MLX_RANK = 5 ]; then sleep 0.5; exit 3; fi; $marker" 2>"$WORK/err" || rc=$?
expect_eq "$rc" 3 "exit status"
expect_line "$WORK/err" "distlaunch: error: rank 5 on h3 exited with status 3; stopping the other 7 running rank(s)"
expect_eq "$(count_procs "$marker")" 0 "rank processes left"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents or wrappers left"

# The same with a channel per rank (no host agent): its wrapper carries the
# rank's command line, one process more per rank. The failing rank is one
# of h3's, whose sleep is killed once all ranks run.
"$DL" --ssh-config "$C/ssh_config" --channel-per-rank --hosts "$(host_list 4)" -n 2 -- \
  sh -c "$marker; exit 3" 2>"$WORK/err" &
pid=$!
expect_eq "$(wait_procs "$marker" $((8 * (PER_RANK + 1))) 10)" $((8 * (PER_RANK + 1))) \
  "rank processes with --channel-per-rank"
expect_eq "$(count_procs "$AGENT_PATTERN")" 0 "host agents with --channel-per-rank"
on_host 3 pkill -o -x -f "$marker"
rc=0
wait $pid || rc=$?
expect_eq "$rc" 3 "exit status with --channel-per-rank"
grep -q "^distlaunch: error: rank [45] on h3 exited with status 3; stopping the other 7 running rank(s)$" "$WORK/err" ||
  { cat "$WORK/err"; fail "no failed-rank line with --channel-per-rank"; }
expect_eq "$(count_procs "$marker")" 0 "rank processes left with --channel-per-rank"
echo PASS
