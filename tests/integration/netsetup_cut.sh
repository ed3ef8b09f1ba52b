# One cut cable after setup: --verify fails and names both ends of the
# failing hop (host, interface, peer address) with the likely cause; the
# other links still pass; --teardown still restores every host.
. "$(dirname "$0")/netsetup_lib.sh"
ring3_up
snapshot_all before
run_distconfig --auto-setup --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || fail "setup exited $RC"
on 2 ip link set tb3 down
run_distconfig --verify
[ "$RC" = 1 ] || fail "--verify with a cut link exited $RC"
expect_err "distconfig: error: h2:tb3 -> h3:tb2 (10.213.0.10) port 32323: verify FAILED: tb3 is down here (cable unplugged, or the interface disabled): check the cable and the interface"
expect_err "distconfig: error: h3:tb2 -> h2:tb3 (10.213.0.9) port 32323: verify FAILED: tb2 is down here (cable unplugged, or the interface disabled): check the cable and the interface"
expect_err "distconfig: note: verify: h1:tb2 -> h2:tb1 (10.213.0.2) port 32323: ok over tb2"
[ "$(tail -n 1 "$WORK/err")" = "distconfig: error: verify: 2 of 6 link check(s) failed; see the hops named above" ] ||
  fail "wrong last line: $(tail -n 1 "$WORK/err")"
# --json: the failing hops in its problems.
run_distconfig --verify --json
[ "$RC" = 1 ] || fail "--verify --json with a cut link exited $RC"
grep -A4 -F '"kind": "verify-failed",' "$WORK/out" |
  grep -qF '"subject": "h2:tb3 -> h3:tb2 (10.213.0.10) port 32323"' ||
  { cat "$WORK/out"; fail "--json problems lack the cut hop"; }
run_distconfig --teardown
[ "$RC" = 0 ] || fail "teardown exited $RC"
snapshot_all after
same_snapshots before after
echo "ok: a cut link is named, teardown restores"
