# One host differs from the others: it reports another python version (a
# python3 shim on h3, first on that host's PATH) and holds another copy of
# a declared input (in h3's own home directory). The example still runs and
# agrees, but the cluster fails "reproducible" naming h3 for both; exit 4.
. "$(dirname "$0")/accept_lib.sh"
cluster_up 4
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3 on the test hosts"; exit 77; }
printf '#!/bin/sh\n[ "$1" = --version ] && { echo "Python 3.99.1"; exit 0; }\nexec %s "$@"\n' \
  "$(command -v python3)" > "$C/h3/shims/python3"
chmod 755 "$C/h3/shims/python3"
# Each host sees its own $C/hK/home over root's home directory.
home=$(getent passwd root | cut -d: -f6)
for k in 1 2 3 4; do echo "training data v1" > "$C/h$k/home/input.txt"; done
echo "training data v2" > "$C/h3/home/input.txt"
write_hostfile "$WORK/hosts.json"
example_task "$WORK/task.json" "s|\"repetitions\": 2,|\"repetitions\": 2, \"inputs\": [\"$home/input.txt\"],|"

accept -k 1 "$WORK/task.json"
expect_rc 4
expect_report_line "runs          PASS"
expect_report_line "reproducible  FAIL"
expect_report_match '^  FAIL  h3: python "Python 3\.99\.1" while the other hosts have "Python 3\.[0-9.]+"$'
v1=$(echo "training data v1" | sha256sum | cut -c1-12)
v2=$(echo "training data v2" | sha256sum | cut -c1-12)
expect_report_line "  FAIL  h3: input $home/input.txt has sha256 $v2 while the other hosts have $v1"
# The same on stderr, one problem per line.
grep -qxF "distaccept: error: h3: input $home/input.txt has sha256 $v2 while the other hosts have $v1" "$WORK/stderr" ||
  { show; fail "stderr lacks h3's input problem"; }
expect_report_match "^  ok    final_loss: spread"
expect_report_line "not reproducible (reached: runs); exit 4"
echo PASS
