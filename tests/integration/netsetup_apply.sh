# Network setup on 3 test hosts cabled as a ring (veth pairs, --links):
# one host already uses the start of the default range, so the plan goes
# around it; --auto-setup applies the addresses and verifies every link;
# a second run changes nothing and says so; --verify passes on its own
# (JSON report); --teardown leaves every host as it was (ip -j addr/route).
. "$(dirname "$0")/netsetup_lib.sh"
ring3_up
on 3 ip addr add 10.213.0.1/29 dev eth0
snapshot_all before

run_distconfig --auto-setup --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || fail "setup exited $RC"
expect_err "distconfig: note: skipped 10.213.0.0/30: h3 has 10.213.0.1/29 on eth0"
expect_err "distconfig: note: skipped 10.213.0.4/30: h3 has 10.213.0.1/29 on eth0"
expect_err "distconfig: note: verify: all 6 link check(s) passed"
expect_err "distconfig: note: verify: h1:tb2 -> h2:tb1 (10.213.0.10) port 32323: ok over tb2"
on 1 ip -o -4 addr show dev tb2 | grep -q " inet 10.213.0.9/30 " || fail "h1 tb2 lacks 10.213.0.9/30"
on 2 ip -o -4 addr show dev tb3 | grep -q " inet 10.213.0.17/30 " || fail "h2 tb3 lacks 10.213.0.17/30"
on 3 ip -o -4 addr show dev tb1 | grep -q " inet 10.213.0.14/30 " || fail "h3 tb1 lacks 10.213.0.14/30"
grep -q '"backend": "ring"' "$WORK/hf.json" || fail "not a ring hostfile"
grep -q '"10.213.0.10"' "$WORK/hf.json" || fail "the hostfile lacks the link addresses"
snapshot_all setup

run_distconfig --auto-setup --output-hostfile "$WORK/hf2.json"
[ "$RC" = 0 ] || fail "second setup exited $RC"
for h in h1 h2 h3; do expect_err "distconfig: note: $h: nothing to change (6 step(s) already done)"; done
cmp -s "$WORK/hf.json" "$WORK/hf2.json" || fail "the second run planned differently"
snapshot_all again
same_snapshots setup again

run_distconfig --verify --json
[ "$RC" = 0 ] || fail "--verify exited $RC"
grep -q '"schema": "distkit.netsetup/1"' "$WORK/out" || fail "no schema in the JSON report"
[ "$(grep -c '"route_iface"' "$WORK/out")" = 6 ] || fail "the JSON report lacks 6 links"

run_distconfig --teardown
[ "$RC" = 0 ] || fail "teardown exited $RC"
for h in h1 h2 h3; do expect_err "distconfig: note: $h: 4 change(s) undone"; done
snapshot_all after
same_snapshots before after
for k in 1 2 3; do [ ! -e "$WORK/state-h$k" ] || fail "state file of h$k left behind"; done
run_distconfig --teardown
[ "$RC" = 0 ] || fail "second teardown exited $RC"
expect_err "distconfig: note: h1: nothing left to undo"
echo "ok: plan around a used range, setup, no-op rerun, verify, teardown"
