# A task run from a directory that is not a git repository: the manifests
# cannot say which code produced the result, so "deliverable" fails naming
# the missing field; runs and reproducible still pass; exit 5.
. "$(dirname "$0")/accept_lib.sh"
cluster_up 4
write_hostfile "$WORK/hosts.json"
mkdir "$WORK/plain"
git -C "$WORK/plain" rev-parse HEAD >/dev/null 2>&1 && { echo "SKIP: $WORK is inside a git repository"; exit 77; }
example_task "$WORK/task.json" "s|\"repetitions\": 2,|\"repetitions\": 1, \"cwd\": \"$WORK/plain\",|"

accept "$WORK/task.json"
expect_rc 5
expect_report_line "runs          PASS"
expect_report_line "reproducible  PASS"
expect_report_line "deliverable   FAIL"
expect_report_line "  FAIL  cluster-1: manifest field hosts.h1.git_commit_of_cwd missing (the working directory is not a git repository there), hosts.h2.git_commit_of_cwd missing (the working directory is not a git repository there), hosts.h3.git_commit_of_cwd missing (the working directory is not a git repository there), hosts.h4.git_commit_of_cwd missing (the working directory is not a git repository there)"
expect_report_line "not deliverable (reached: reproducible); exit 5"
echo PASS
