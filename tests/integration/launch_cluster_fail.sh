# One of 8 ranks on 4 hosts exits 3: distlaunch exits 3 after one line naming
# rank, host and why, and no rank process remains on any host, nor any host
# agent.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 97$$"
rc=0
dl --hosts "$(host_list 4)" -n 2 -- \
  sh -c "if [ \$MLX_RANK = 5 ]; then sleep 0.5; exit 3; fi; $marker" 2>"$WORK/err" || rc=$?
expect_eq "$rc" 3 "exit status"
expect_line "$WORK/err" "distlaunch: error: rank 5 on h3 exited with status 3; stopping the other 7 running rank(s)"
expect_eq "$(count_procs "$marker")" 0 "rank processes left"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left"

echo PASS
