# distlaunch inside a real Slurm allocation (salloc -N 4 -n 8, no hosts
# given): srun is the launcher, the allocation's layout gives 8 ranks, 2
# per node, each with MLX's and distkit's rank environment on its own node;
# a rank that exits 3 gives exit 3 with no process left on any node and no
# job left; --record names the job and each host agent's step; a host
# outside the allocation and a step srun refuses are reported as such.
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4

# Each rank: its variables, Slurm's task variables as srun -n 8 would set
# them (not its one-task step's), the node it runs on (its UTS namespace)
# and the ring hostfile's content.
show='echo "$MLX_RANK $DISTKIT_RANK $DISTKIT_LOCAL_RANK/$DISTKIT_LOCAL_SIZE $DISTKIT_WORLD_SIZE $SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURM_NTASKS $SLURM_NPROCS $SLURM_NNODES $DISTKIT_HOST $(hostname) $(cat "$MLX_HOSTFILE")"'
salloc -N 4 -n 8 --quiet "$DL" --ssh-config "$C/ssh_config" --cwd "$WORK" --record "$WORK/rec1" \
  -- sh -c "$show" > "$WORK/got" 2> "$WORK/err" || { cat "$WORK/err"; fail "distlaunch failed"; }
ring="["
r=0
while [ $r -lt 8 ]; do
  [ $r = 0 ] || ring="$ring, "
  ring="${ring}[\"$("$CLUSTER" addr "$C" $((r / 2 + 1))):$((32323 + r))\"]"
  r=$((r + 1))
done
ring="$ring]"
r=0
: > "$WORK/want"
while [ $r -lt 8 ]; do
  h="h$((r / 2 + 1))"
  echo "$r $r $((r % 2))/2 8 $r $((r % 2)) $((r / 2)) 8 8 4 $h $h $ring" >> "$WORK/want"
  r=$((r + 1))
done
sort -n "$WORK/got" > "$WORK/got.sorted"
cmp -s "$WORK/want" "$WORK/got.sorted" || {
  echo "--- want"; cat "$WORK/want"; echo "--- got"; cat "$WORK/got.sorted"; fail "rank environment"
}
echo "ok: 8 ranks, 2 per node, with their environment"

# The manifest: the launcher, the job and one step per host agent.
python3 - "$WORK/rec1/manifest.json" <<'PY' || fail "manifest of the first job"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["launcher"] == "srun", m.get("launcher")
job = m["slurm"]["job_id"]
steps = m["slurm"]["steps"]
assert sorted(steps) == ["h1", "h2", "h3", "h4"], steps
assert all(s.startswith(job + ".") for s in steps.values()), steps
assert len(set(steps.values())) == 4, steps
assert all(m["hosts"][h]["slurm_step"] == s for h, s in steps.items())
assert [r["host"] for r in m["ranks"]] == ["h1", "h1", "h2", "h2", "h3", "h3", "h4", "h4"]
PY
echo "ok: --record names the job and the steps"

# Rank 5 exits 3 while the others sleep: exit 3, everything gone.
t0=$(now_ms)
rc=0
salloc -N 4 --ntasks-per-node=2 --quiet "$DL" --ssh-config "$C/ssh_config" --record "$WORK/rec2" \
  -- sh -c 'if [ "$MLX_RANK" = 5 ]; then sleep 0.5; exit 3; fi; exec sleep 300' \
  > "$WORK/out2" 2> "$WORK/err2" || rc=$?
t1=$(now_ms)
expect_eq "$rc" 3 "exit status of the job whose rank 5 exited 3"
grep -q "rank 5 on h3 exited with status 3" "$WORK/err2" || { cat "$WORK/err2"; fail "no failing rank named"; }
[ $((t1 - t0)) -lt 15000 ] || fail "fail-fast took $((t1 - t0)) ms"
expect_eq "$(count_procs 'sleep 300')" 0 "ranks left on the nodes"
expect_eq "$(count_procs "$AGENT_PATTERN")" 0 "host agents left on the nodes"
expect_eq "$(squeue -h | wc -l)" 0 "Slurm jobs left"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert m["exit_code"] == 3 and len(m["slurm"]["steps"]) == 4' \
  "$WORK/rec2/manifest.json" || fail "manifest of the failed job"
echo "ok: exit 3 in $((t1 - t0)) ms, nothing left"

# A host outside the allocation: a usage error before anything starts.
rc=0
salloc -N 2 --quiet "$DL" --ssh-config "$C/ssh_config" --hosts h1,h4 -- true 2> "$WORK/err4" || rc=$?
expect_eq "$rc" 2 "a host outside the allocation"
expect_line "$WORK/err4" "distlaunch: error: --launcher srun: 'h4' is not a node of this Slurm allocation (h[1-2]); give the allocation's nodes, or use --launcher ssh for other hosts"

# srun refusing the step (a job that does not exist): its own words.
rc=0
SLURM_JOB_ID=999999 SLURM_JOB_NODELIST=h1 "$DL" --ssh-config "$C/ssh_config" -- true 2> "$WORK/err5" || rc=$?
expect_eq "$rc" 1 "srun refusing the step"
expect_line "$WORK/err5" "distlaunch: error: h1: preflight failed (its first command ended with status 1: srun: error: Unable to confirm allocation for job 999999: Invalid job id specified); check the host"
echo "ok: a host outside the allocation, and srun's refusal, each named"

# srun asked for outside an allocation: a usage error naming the remedy.
rc=0
env -u SLURM_JOB_ID "$DL" --launcher srun --hosts h1 -- true 2> "$WORK/err3" || rc=$?
expect_eq "$rc" 2 "--launcher srun outside an allocation"
expect_line "$WORK/err3" "distlaunch: error: --launcher: srun needs a Slurm allocation, and SLURM_JOB_ID is not set; run distlaunch inside salloc or an sbatch script, or use --launcher ssh"
echo PASS
