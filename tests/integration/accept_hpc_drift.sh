# The HPC column with another python on one of its nodes (a python3 shim
# on h4, first on PATH there): the runs still agree, but "reproducible"
# fails naming the HPC node; exit 4.
CLUSTER_PREFIX=distkit-accept-hpc-test
. "$(dirname "$0")/accept_lib.sh"
. "$(dirname "$0")/slurm_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3 on the test hosts"; exit 77; }
slurm_up 4
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "Python 3.99.1"; exit 0; }\nexec %s "$@"\n' \
  "$(command -v python3)" > "$C/h4/shims/python3"
chmod 755 "$C/h4/shims/python3"
hpc_ssh_hosts
example_task "$WORK/task.json"

# The shims directory is first on PATH for the Slurm steps too.
PATH="/usr/local/sbin:$PATH" accept -k 1 --hpc-nodes 2 --sbatch-arg=--nodelist=h3,h4 "$WORK/task.json"
expect_rc 4
expect_report_line "runs          PASS"
expect_report_line "reproducible  FAIL"
expect_report_match '^  FAIL  h4: python "Python 3\.99\.1" while the other hosts have "Python 3\.[0-9.]+"$'
expect_report_match "^  ok    final_loss: spread"
expect_report_line "not reproducible (reached: runs); exit 4"
echo PASS
