# Three ranks as processes on three test hosts run every distbench test
# with result checking: every collective gives the closed-form result
# across hosts, and the rank -> host map shows each host.
. "$(dirname "$0")/runtime_lib.sh"
cluster_up 3
for r in 0 1 2; do start_rank $r -t all -b 8 -e 1M -f 16 -n 2 -w 1 -d bfloat16; done
for r in 0 1 2; do
  st=$(wait_rank $r 60)
  [ "$st" = 0 ] || { cat "$WORK/err.$r" >&2; fail "rank $r exited with $st"; }
done
out=$WORK/out.0
[ "$(grep -c '^# Out of bounds values : 0 OK$' "$out")" = 6 ] || { cat "$out" >&2; fail "not 6 clean tests"; }
for k in 1 2 3; do
  grep -q "on h$k ($(sed -n "${k}p" "$CL/addrs"))\$" "$out" || fail "rank map lacks h$k"
done
[ ! -s "$WORK/out.1" ] || fail "rank 1 printed a table (only rank 0 should)"
echo "ok: 6 collectives checked clean across 3 hosts"
