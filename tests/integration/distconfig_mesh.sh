# 4 test hosts answering as the mesh4 scenario's Macs: distconfig probes
# them over SSH and writes the jaccl hostfile, identical to the reference
# except that the management address is each host's real address (the one
# its SSH connection arrived on), not the captured en0 address.
. "$(dirname "$0")/distconfig_lib.sh"
cluster_up 4
scenario_outputs mesh4_m3ultra_rdma studio-a studio-b studio-c studio-d
run_distconfig --hosts h1,h2,h3,h4 --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "distconfig exited $RC"; }
ADDRS=1 expected_for mesh4_m3ultra_rdma expected_jaccl.hostfile.json \
  studio-a studio-b studio-c studio-d >"$WORK/want.json"
cmp "$WORK/want.json" "$WORK/hf.json" || { diff "$WORK/want.json" "$WORK/hf.json" >&2; fail "jaccl hostfile differs"; }
assert_contains "$WORK/hf.json" '"backend": "jaccl"'
echo "ok: 4-host mesh -> jaccl hostfile"
