# The shipped example on 1 host vs 4 hosts (4 ranks each way): all three
# levels are reached, every run's logs and manifest are kept, the resumed
# run agrees with the cluster, and --json carries the same verdict.
. "$(dirname "$0")/accept_lib.sh"
cluster_up 4
git -C "$SRC" rev-parse HEAD >/dev/null 2>&1 || { echo "SKIP: $SRC is not a git checkout"; exit 77; }
write_hostfile "$WORK/hosts.json"
example_task "$WORK/task.json"

accept --json "$WORK/task.json"
expect_rc 0
grep -q '"schema": "distkit.acceptance/1"' "$WORK/report" || { show; fail "no schema"; }
grep -q '"reached": "deliverable"' "$WORK/report" || { show; fail "not deliverable"; }
for run in baseline-1 baseline-2 cluster-1 cluster-2 resume; do
  [ -s "$WORK/runs/$run/manifest.json" ] || fail "$run: no manifest"
  for r in 0 1 2 3; do [ -f "$WORK/runs/$run/rank-$r.log" ] || fail "$run: no rank-$r.log"; done
done
# The baseline ran every rank on h1, the cluster one rank per host.
grep -q '"DISTKIT_LOCAL_SIZE": "4"' "$WORK/runs/baseline-1/manifest.json" || fail "baseline not local"
for h in h1 h2 h3 h4; do
  grep -q "\"host\": \"$h\"" "$WORK/runs/cluster-1/manifest.json" || fail "$h not in cluster-1"
done
[ -s "$WORK/runs/acceptance.json" ] || fail "no acceptance.json record"

# The human report (not a TTY: no colour) from a second, one-repetition run.
rm -rf "$WORK/runs"
accept -k 1 "$WORK/task.json"
expect_rc 0
expect_report_line "  baseline: 1 run(s) of 4 rank(s) on h1"
expect_report_line "  cluster: 1 run(s) of 4 rank(s) on h1,h2,h3,h4"
expect_report_line "runs          PASS"
expect_report_line "reproducible  PASS"
expect_report_line "deliverable   PASS"
expect_report_match "^  ok    final_loss: spread [0-9.e+-]+ across 2 runs within the tolerance"
expect_report_line "  ok    resume: resumed from a checkpoint, exited 0 on every rank and agrees with the cluster on all 8 metric(s)"
expect_report_line "all three levels reached: runs, reproducible, deliverable"
echo PASS
