# distlaunch killed with SIGKILL inside salloc while 8 ranks run on 4
# nodes: no rank and no host agent is left on any node and the
# allocation is gone (the agents see their step's stdin close; salloc
# ends the job, and Slurm's step cleanup kills what is left).
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4

salloc -N 4 --ntasks-per-node=2 --quiet \
  sh -c "echo \$\$ > '$WORK/dl.pid'; exec '$DL' --ssh-config '$C/ssh_config' --no-stdin -- sleep 300" \
  > "$WORK/out" 2> "$WORK/err" &
salloc_pid=$!
expect_eq "$(wait_procs 'sleep 300' 8 20)" 8 "ranks running"
kill -KILL "$(cat "$WORK/dl.pid")"
t0=$(now_ms)
wait "$salloc_pid" || true
expect_eq "$(wait_procs 'sleep 300' 0 20)" 0 "ranks left after SIGKILL of distlaunch"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 10)" 0 "host agents left"
t=0
while [ "$(squeue -h | wc -l)" != 0 ] && [ $t -lt 100 ]; do sleep 0.1; t=$((t + 1)); done
expect_eq "$(squeue -h | wc -l)" 0 "Slurm jobs left"
echo "ok: nothing left $(($(now_ms) - t0)) ms after SIGKILL"
echo PASS
