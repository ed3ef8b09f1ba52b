# One repetition of distaccept's HPC column (templates/accept_hpc_run.sh,
# inside accept_hpc_job.sh): the task through distlaunch on the whole
# allocation, its status, then rank 0's results collected on this node.
run_dir={{run_dir}}
mkdir -p "$run_dir/collect"
{{distlaunch}} {{launch_flags|raw}} --log-dir "$run_dir" -- {{command|raw}} \
  >"$run_dir/distlaunch.log" 2>&1
echo $? >"$run_dir/exit_status"
(cd {{cwd}} && /bin/sh -c {{collect}}) >"$run_dir/collect/rank-0.log" 2>&1
