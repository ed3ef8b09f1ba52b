# Real MLX (its C++ library, ring backend over TCP) under distlaunch: 2 and
# then 4 test hosts, 2 ranks per host (-n 2), from the hostfile
# `distconfig --over ethernet` writes; every rank checks all_sum,
# all_gather and send/recv results exactly and says so in one line.
. "$(dirname "$0")/mlx_lib.sh"
cluster_up 4
mlx_program
for hosts in 2 4; do
  n=$((hosts * 2))
  mlx_hostfile "$hosts" "$WORK/hosts$hosts.json"
  rc=0
  dl --hostfile "$WORK/hosts$hosts.json" -n 2 --timeout 300 -- "$MLX_PROG" \
    >"$WORK/out$hosts" 2>"$WORK/err$hosts" || rc=$?
  [ "$rc" = 0 ] || { cat "$WORK/out$hosts" "$WORK/err$hosts" >&2; fail "$n ranks: exit status $rc"; }
  r=0
  while [ $r -lt $n ]; do
    expect_line "$WORK/out$hosts" "mlx_collectives: rank $r of $n: all_sum, all_gather, send/recv exact"
    r=$((r + 1))
  done
  echo "ok: $n MLX ranks on $hosts hosts, every result exact"
done
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left"
echo PASS
