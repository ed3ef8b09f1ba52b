# 3 test hosts cabled as a chain (a-b, b-c): jaccl and the automatic
# choice exit non-zero, naming both hosts of the missing pair and the free
# ports a new cable could use on each; no hostfile is written.
. "$(dirname "$0")/distconfig_lib.sh"
cluster_up 3
scenario_outputs chain3_m3ultra_missing_cable studio-a studio-b studio-c
free="Thunderbolt 1 (en2), Thunderbolt 3 (en4), Thunderbolt 4 (en5), Thunderbolt 5 (en6), Thunderbolt 6 (en7)"
run_distconfig --hosts h1,h2,h3 --backend jaccl --output-hostfile "$WORK/hf.json"
[ "$RC" = 1 ] || fail "expected exit 1, got $RC"
assert_contains "$WORK/err" "distconfig: error: h1 <-> h3: no cable between them; free ports on h1: $free; on h3: $free"
assert_contains "$WORK/err" "distconfig: error: jaccl: the hosts are not a full mesh (1 pair(s) without a cable)"
[ ! -e "$WORK/hf.json" ] || fail "a hostfile was written"
run_distconfig --hosts h1,h2,h3 --output-hostfile "$WORK/hf.json"
[ "$RC" = 1 ] || fail "auto: expected exit 1, got $RC"
assert_contains "$WORK/err" "h1 <-> h3: no cable between them"
assert_contains "$WORK/err" "distconfig: error: thunderbolt: neither a full mesh nor a ring through all 3 hosts"
[ ! -e "$WORK/hf.json" ] || fail "a hostfile was written"
echo "ok: missing cable -> exit 1 naming h1, h3 and their free ports"
