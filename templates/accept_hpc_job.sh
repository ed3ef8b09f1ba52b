#!/bin/sh
# distaccept's HPC column (templates/accept_hpc_job.sh): one Slurm batch
# job, submitted with sbatch --wait, that runs on its allocation the host
# probe (one rank per node) and then each repetition, all through
# distlaunch (srun reaches the nodes). Each writes into its own directory
# of distaccept's work directory, which the nodes share with distaccept:
# the ranks' logs, the manifest, distlaunch's status (exit_status) and
# what rank 0's node collected after it (collect/rank-0.log; this script
# runs on the allocation's first node, where rank 0 runs). POSIX sh.
distlaunch={{distlaunch}}
probe_dir={{probe_dir}}
mkdir -p "$probe_dir"
"$distlaunch" {{launch_flags|raw}} -n 1 --no-preflight --timeout 60 --log-dir "$probe_dir" \
  -- /bin/sh -c {{probe}} >"$probe_dir/distlaunch.log" 2>&1
echo $? >"$probe_dir/exit_status"
{{runs|raw}}
exit 0
