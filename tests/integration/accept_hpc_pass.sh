# The HPC as a third column: the example task on one host (h1), on a
# 2-host cluster over SSH (h1,h2) and as one Slurm job on 2 other nodes
# (sbatch --wait, --nodelist=h3,h4, distlaunch inside it through srun).
# All three agree and reach every level; the report says which ran where,
# naming the Slurm job.
CLUSTER_PREFIX=distkit-accept-hpc-test
. "$(dirname "$0")/accept_lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4
hpc_ssh_hosts
example_task "$WORK/task.json"

accept --hpc-nodes 2 --sbatch-arg=--nodelist=h3,h4 "$WORK/task.json"
expect_rc 0
expect_report_line "  baseline: 2 run(s) of 2 rank(s) on h1"
expect_report_line "  cluster: 2 run(s) of 2 rank(s) on h1,h2"
expect_report_match '^  hpc: 2 run\(s\) of 2 rank\(s\) on h3,h4 \(Slurm job [0-9]+\)$'
expect_report_match '^  ok    hpc-2: 2 rank\(s\) on h3,h4 \(Slurm job [0-9]+\) exited 0 in '
expect_report_match "^  ok    final_loss: spread"
expect_report_match '^  ok    python: "Python 3\.[0-9.]+" on all 4 host\(s\)$'
expect_report_line "  ok    hpc-1: manifest complete (command, commit, Slurm job, environment)"
expect_report_line "all three levels reached: runs, reproducible, deliverable"
echo PASS
