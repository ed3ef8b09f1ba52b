# Shared by tests/integration/accept_*.sh (sourced, POSIX sh): launch_lib.sh's
# test cluster (own temp dir, always torn down), the built distaccept and the
# example, a hostfile of the cluster's hosts, and the shipped example task
# rewritten to run the built example from the source checkout (a git
# repository, so the manifests carry a commit).
. "$(dirname "$0")/launch_lib.sh"
DA="$BUILD/apps/distaccept"
LINREG="$BUILD/examples/linear_regression/linreg"
[ -x "$DA" ] || { echo "SKIP: $DA not built (cmake --build ... --target distaccept)"; exit 77; }
[ -x "$LINREG" ] || { echo "SKIP: $LINREG not built (cmake --build ... --target linreg)"; exit 77; }

# write_hostfile FILE: [{"ssh": "h1", "ips": ["10.77.X.2"]}, ...] of the cluster.
write_hostfile() {
  paste -d ' ' "$C/hosts" "$C/addrs" |
    awk 'BEGIN { printf "[" } { printf "%s{\"ssh\": \"%s\", \"ips\": [\"%s\"]}", (NR > 1 ? ", " : ""), $1, $2 }
         END { print "]" }' > "$1"
}

# hpc_ssh_hosts: $WORK/hosts.json of h1 and h2, the SSH cluster beside
# the Slurm nodes h3 and h4 in the HPC tests.
hpc_ssh_hosts() {
  write_hostfile "$WORK/all.json"
  sed 's/}, {"ssh": "h3".*$/}]/' "$WORK/all.json" > "$WORK/hosts.json"
  if ! grep -q '"h2"' "$WORK/hosts.json" || grep -q '"h3"' "$WORK/hosts.json"; then
    fail "hostfile of h1,h2: $(cat "$WORK/hosts.json")"
  fi
}

# example_task FILE [SED-EXPR]: the shipped task with the built example's
# absolute path, optionally edited further.
example_task() {
  sed -e "s|\"examples/linear_regression/linreg\"|\"$LINREG\"|g" ${2:+-e "$2"} \
    "$SRC/examples/linear_regression/task.json" > "$1"
}

# accept ARGS...: distaccept against the test cluster, from the source
# checkout; the exit status is kept in $rc.
accept() {
  rc=0
  (cd "$SRC" && "$DA" --ssh-config "$C/ssh_config" --hostfile "$WORK/hosts.json" \
    --work-dir "$WORK/runs" "$@") > "$WORK/report" 2> "$WORK/stderr" || rc=$?
}

show() {
  echo "--- report:"; cat "$WORK/report"; echo "--- stderr:"; cat "$WORK/stderr"
  # The ranks' own words, so a failure in CI explains itself.
  for f in "$WORK"/runs/*/rank-*.log; do
    [ -f "$f" ] || continue
    echo "--- ${f#"$WORK"/runs/} (last lines):"; tail -n 5 "$f"
  done
}
expect_rc() { [ "$rc" = "$1" ] || { show; fail "distaccept exited $rc, expected $1"; }; }
expect_report_line() { expect_line "$WORK/report" "$1"; }
expect_report_match() {
  grep -qE -- "$1" "$WORK/report" || { show; fail "no report line matches: $1"; }
}
