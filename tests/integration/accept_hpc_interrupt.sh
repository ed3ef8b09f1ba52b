# Ctrl-C while distaccept waits for its HPC job (sbatch --wait, which runs
# in a process group of its own and so never sees the terminal's SIGINT):
# distaccept cancels the job with scancel and exits 130 naming it, and
# nothing is left queued in Slurm or running on the nodes. Twice: with the
# job's ranks running (they sleep on the HPC nodes only), and with the job
# still pending (held back by --begin). And when scancel fails, the line
# says so and names the job to cancel by hand.
CLUSTER_PREFIX=distkit-accept-hpc-test
. "$(dirname "$0")/accept_lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4
hpc_ssh_hosts
# The example, but on an HPC node (SLURM_JOB_ID set, srun exports it to the
# ranks) each rank sleeps instead.
cat > "$WORK/task.json" <<JSON
{
  "name": "hpc_interrupt",
  "command": ["sh", "-c", "[ -z \"\$SLURM_JOB_ID\" ] || exec sleep 300; exec \"\$0\" \"\$@\"",
              "$LINREG", "--seed", "42", "--steps", "50", "--out", "{run_dir}"],
  "repetitions": 1,
  "ranks_per_host": 1,
  "metrics": {"final_loss": {"rel": 1e-9}},
  "timeout_s": 600
}
JSON

# accept_bg ARGS...: accept in the background; its pid in $da_pid.
accept_bg() {
  (cd "$SRC" && exec "$DA" --ssh-config "$C/ssh_config" --hostfile "$WORK/hosts.json" \
    --work-dir "$WORK/runs" "$@") > "$WORK/report" 2> "$WORK/stderr" &
  da_pid=$!
}
wait_jobs() {  # wait_jobs N SECONDS: until squeue lists N jobs
  t=0
  while [ "$(squeue -h | wc -l)" != "$1" ] && [ $t -lt $(($2 * 10)) ]; do sleep 0.1; t=$((t + 1)); done
  squeue -h | wc -l
}
interrupt() {
  kill -INT "$da_pid"
  rc=0
  wait "$da_pid" || rc=$?
  expect_rc 130
  grep -qE '^distaccept: error: hpc: interrupted; Slurm job [0-9]+ was cancelled \(scancel\)$' \
    "$WORK/stderr" || { show; fail "no line naming the cancelled job"; }
  expect_eq "$(wait_jobs 0 20)" 0 "Slurm jobs left after Ctrl-C"
}

# 1. Running: both HPC ranks sleep on h3 and h4.
accept_bg --hpc-nodes 2 --sbatch-arg=--nodelist=h3,h4 "$WORK/task.json"
expect_eq "$(wait_procs '^sleep 300' 2 90)" 2 "HPC ranks running"
interrupt
expect_eq "$(wait_procs '^sleep 300' 0 20)" 0 "HPC ranks left after Ctrl-C"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 20)" 0 "host agents left after Ctrl-C"
echo "ok: running job cancelled"

# 2. Pending: --begin holds the job in the queue.
rm -rf "$WORK/runs"
accept_bg --hpc-nodes 2 --sbatch-arg=--nodelist=h3,h4 --sbatch-arg=--begin=now+3600 "$WORK/task.json"
expect_eq "$(wait_jobs 1 90)" 1 "HPC job queued"
interrupt
echo "ok: pending job cancelled"

# 3. scancel fails (a scancel first on PATH that refuses): exit 130 all the
# same, naming the job and the command to run; the test then cancels it.
rm -rf "$WORK/runs"
mkdir -p "$WORK/bin"
printf '#!/bin/sh\necho "scancel: error: Kill job error on job id $1: Access/permission denied" >&2\nexit 1\n' \
  > "$WORK/bin/scancel"
chmod 755 "$WORK/bin/scancel"
PATH="$WORK/bin:$PATH" accept_bg --hpc-nodes 2 --sbatch-arg=--nodelist=h3,h4 \
  --sbatch-arg=--begin=now+3600 "$WORK/task.json"
expect_eq "$(wait_jobs 1 90)" 1 "HPC job queued"
job=$(squeue -h -o %i)
kill -INT "$da_pid"
rc=0
wait "$da_pid" || rc=$?
expect_rc 130
expect_line "$WORK/stderr" "distaccept: error: hpc: interrupted; scancel $job failed: scancel: error: Kill job error on job id $job: Access/permission denied; cancel it yourself: scancel $job"
expect_eq "$(squeue -h | wc -l)" 1 "the job distaccept could not cancel"
scancel "$job"
expect_eq "$(wait_jobs 0 20)" 0 "Slurm jobs left"
echo "ok: a failing scancel is named with the command to run"
echo PASS
