# distlaunch as an sbatch job (sbatch --wait -N 4 --ntasks-per-node=2): it
# runs on the allocation's first node, srun reaches all four, 8 ranks each
# on its own node; rank 6's exit 3 (a second after the others have printed
# and ended: a rank still starting would be stopped) is the job's exit
# status; --record
# names the job sbatch submitted.
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4

# The script runs from Slurm's spool directory: every path absolute.
dl_path=$(cd "$(dirname "$DL")" && pwd)/distlaunch
cat > "$WORK/job.sh" <<JOB
#!/bin/sh
exec "$dl_path" --ssh-config "$C/ssh_config" --record "$WORK/rec" --tag-output \\
  -- sh -c 'echo "\$MLX_RANK \$DISTKIT_LOCAL_RANK \$(hostname)"; [ "\$MLX_RANK" != 6 ] || { sleep 1; exit 3; }'
JOB
rc=0
sbatch --wait -N 4 --ntasks-per-node=2 -D "$WORK" -o "$WORK/out" -e "$WORK/err" "$WORK/job.sh" \
  > "$WORK/submitted" || rc=$?
[ "$rc" = 3 ] || { cat "$WORK/err"; fail "sbatch --wait gave $rc, not 3 (rank 6 exited 3)"; }
job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$WORK/submitted")
[ -n "$job" ] || { cat "$WORK/submitted"; fail "no job id from sbatch"; }
grep -q "rank 6 on h4 exited with status 3" "$WORK/err" || { cat "$WORK/err"; fail "rank 6 not named"; }
sed 's/^\[[0-9]* h[0-9]*\] //' "$WORK/out" | sort -n > "$WORK/got"
printf '0 0 h1\n1 1 h1\n2 0 h2\n3 1 h2\n4 0 h3\n5 1 h3\n6 0 h4\n7 1 h4\n' > "$WORK/want"
cmp -s "$WORK/want" "$WORK/got" || { cat "$WORK/out"; fail "ranks and their nodes"; }
python3 - "$WORK/rec/manifest.json" "$job" <<'PY' || fail "manifest"
import json, sys
m = json.load(open(sys.argv[1]))
assert m["exit_code"] == 3, m["exit_code"]
assert [r.get("exit_status") for r in m["ranks"]] == [0, 0, 0, 0, 0, 0, 3, 0], m["ranks"]
assert m["slurm"]["job_id"] == sys.argv[2], m["slurm"]
assert sorted(m["slurm"]["steps"]) == ["h1", "h2", "h3", "h4"], m["slurm"]
PY
expect_eq "$(count_procs "$AGENT_PATTERN")" 0 "host agents left on the nodes"
echo PASS
