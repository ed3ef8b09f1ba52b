# 4 test hosts in a mesh, RDMA disabled on h3 only (ibv_devices prints its
# header only): --backend jaccl exits 1 with the numbered Recovery steps for
# h3 and for no other host.
. "$(dirname "$0")/distconfig_lib.sh"
cluster_up 4
scenario_outputs mesh4_m3ultra_rdma studio-a studio-b studio-c studio-d
cp "$SRC/tests/data/probe/ibv_devices_m5max_mbp_A_rdma_disabled_header_only.txt" "$CL/h3/outputs/ibv_devices.txt"
run_distconfig --hosts h1,h2,h3,h4 --backend jaccl --output-hostfile "$WORK/hf.json"
[ "$RC" = 1 ] || { cat "$WORK/err" >&2; fail "expected exit 1, got $RC"; }
assert_contains "$WORK/err" "distconfig: error: h3: RDMA is not enabled (missing rdma_en3, rdma_en4, rdma_en5); run rdma_ctl enable in macOS Recovery (not remotely, even with sudo)"
assert_contains "$WORK/err" "To enable RDMA on h3 (it cannot be enabled remotely, even with sudo):"
assert_contains "$WORK/err" "  1. Shut down, then start in macOS Recovery"
assert_contains "$WORK/err" "  3. Run: rdma_ctl enable"
assert_contains "$WORK/err" "  5. Verify: \`ibv_devices\` lists rdma_en3, rdma_en4, rdma_en5"
for h in h1 h2 h4; do assert_lacks "$WORK/err" "$h: RDMA is not enabled"; done
assert_contains "$WORK/err" "distconfig: error: jaccl: RDMA is not ready on the links jaccl needs"
[ ! -e "$WORK/hf.json" ] || fail "a hostfile was written"
echo "ok: RDMA missing on h3 -> Recovery steps for h3 only"
