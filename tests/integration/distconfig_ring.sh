# 4 test hosts cabled as a ring (ring4 scenario): --backend ring writes the
# reference ring hostfile (point-to-point addresses of the MLX plan: its
# 192.168.0.0/16 is not our default --subnet, so it is passed; ring
# order), and the automatic choice is jaccl-ring.
. "$(dirname "$0")/distconfig_lib.sh"
cluster_up 4
scenario_outputs ring4_m3ultra_rdma studio-a studio-b studio-c studio-d
run_distconfig --hosts h1,h2,h3,h4 --backend ring --subnet 192.168.0.0/16 --output-hostfile "$WORK/ring.json"
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "distconfig --backend ring exited $RC"; }
expected_for ring4_m3ultra_rdma expected_ring.hostfile.json studio-a studio-b studio-c studio-d >"$WORK/want.json"
cmp "$WORK/want.json" "$WORK/ring.json" || { diff "$WORK/want.json" "$WORK/ring.json" >&2; fail "ring hostfile differs"; }
run_distconfig --hosts h1,h2,h3,h4 --output-hostfile "$WORK/auto.json"
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "distconfig (auto) exited $RC"; }
ADDRS=1 expected_for ring4_m3ultra_rdma expected_auto.hostfile.json studio-a studio-b studio-c studio-d >"$WORK/want_auto.json"
cmp "$WORK/want_auto.json" "$WORK/auto.json" || { diff "$WORK/want_auto.json" "$WORK/auto.json" >&2; fail "jaccl-ring hostfile differs"; }
echo "ok: ring -> ring hostfile; auto -> jaccl-ring"
