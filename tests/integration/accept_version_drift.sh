# One host reports a different python version (a python3 shim on h3, first
# on that host's PATH): the example still runs and agrees, but the cluster
# fails "reproducible" naming h3; exit 4.
. "$(dirname "$0")/accept_lib.sh"
cluster_up 4
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3 on the test hosts"; exit 77; }
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "Python 3.99.1"; exit 0; }\nexec %s "$@"\n' \
  "$(command -v python3)" > "$C/h3/shims/python3"
chmod 755 "$C/h3/shims/python3"
write_hostfile "$WORK/hosts.json"
example_task "$WORK/task.json"

accept -k 1 "$WORK/task.json"
expect_rc 4
expect_report_line "runs          PASS"
expect_report_line "reproducible  FAIL"
expect_report_match '^  FAIL  python differs: h3 has python "Python 3\.99\.1" while the other hosts have "Python 3\.[0-9.]+"$'
expect_report_match "^  ok    final_loss: spread"
expect_report_line "not reproducible (reached: runs); exit 4"
echo PASS
