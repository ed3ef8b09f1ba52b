# A task with injected nondeterminism (the example's --nondeterministic:
# label noise from the OS's entropy) runs, but fails "reproducible" naming
# the metric and its spread; exit 4.
. "$(dirname "$0")/accept_lib.sh"
cluster_up 4
write_hostfile "$WORK/hosts.json"
example_task "$WORK/task.json" 's|"--seed", "42",|"--nondeterministic", "--seed", "42",|'
grep -q -- '--nondeterministic' "$WORK/task.json" || fail "task not rewritten"

accept -k 1 "$WORK/task.json"
expect_rc 4
expect_report_line "runs          PASS"
expect_report_line "reproducible  FAIL"
expect_report_match "^  FAIL  final_loss: spread [0-9.e+-]+ across 2 runs exceeds the tolerance [0-9.e+-]+ \(abs 0, rel 1e-09\); min [0-9.e+-]+ in (baseline|cluster)-1, max [0-9.e+-]+ in (baseline|cluster)-1$"
expect_report_match "^  FAIL  bias: spread [0-9.e+-]+ across 2 runs exceeds the tolerance 1e-09"
expect_report_line "not reproducible (reached: runs); exit 4"
grep -q "^distaccept: error: final_loss: spread " "$WORK/stderr" || { show; fail "stderr lacks the metric"; }
grep -A4 -F '"kind": "metric-differs",' "$WORK/runs/acceptance.json" | grep -qF '"subject": "bias"' ||
  { show; fail "acceptance.json problems lack the metric bias"; }
echo PASS
