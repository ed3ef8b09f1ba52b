# distconfig --doctor on the test cluster (a ring of 3 veth "cables" set up
# with --auto-setup): all hops pass; a hop whose route points at another
# veth (a /32 over h1's eth0 for h2's link address) is named with that
# interface and the fix; h1's network location against the one its state
# file records: the same passes, another fails with the switch-back fix; a
# cut link is reported down; --json carries the same verdicts.
. "$(dirname "$0")/netsetup_lib.sh"
ring3_up
run_distconfig --auto-setup --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || fail "setup exited $RC"
run_distconfig --doctor
[ "$RC" = 0 ] || { cat "$WORK/out"; fail "--doctor on a good ring exited $RC"; }
grep -q '^doctor: 18 check(s), 0 failed, 0 warning(s)$' "$WORK/out" || { cat "$WORK/out"; fail "wrong summary"; }
# expect_row VERDICT HOST CHECK SUBJECT EVIDENCE-PART: a table row.
expect_row() {
  awk -v v="$1" -v h="$2" -v c="$3" -v s="$4" -v e="$5" '
    $1 == v && $2 == h && $3 == c && index($0, s) && index($0, e) { found = 1 }
    END { exit !found }' "$WORK/out" || { cat "$WORK/out"; fail "no row: $*"; }
}
expect_row ok h1 route "h1:tb2 -> h2 (10.213.0.2)" "ip route get 10.213.0.2: 10.213.0.2 dev tb2"
expect_row ok h3 connect "h3:tb1 -> h1 (10.213.0.5)" "TCP connect to 10.213.0.5:32322 in"

# A hop routed through another veth than its link.
on 1 ip route add 10.213.0.2/32 dev eth0
run_distconfig --doctor
[ "$RC" = 1 ] || fail "--doctor with a misrouted hop exited $RC"
expect_row fail h1 route "h1:tb2 -> h2 (10.213.0.2)" "ip route get 10.213.0.2: 10.213.0.2 dev eth0"
grep -qxF "fail: h1 route h1:tb2 -> h2 (10.213.0.2): traffic to 10.213.0.2 leaves through the LAN (eth0), not the link tb2: the job runs at that path's speed" "$WORK/out" ||
  { cat "$WORK/out"; fail "no cause line for the misrouted hop"; }
grep -q '^doctor: 18 check(s), 1 failed, 0 warning(s)$' "$WORK/out" || { cat "$WORK/out"; fail "only the misrouted hop should fail"; }
on 1 ip route del 10.213.0.2/32 dev eth0

# The network location (issue #20). h1 answers `networksetup
# -getcurrentlocation` from a real capture through its shim; its state file
# gets the record a Mac's setup writes (a test host's kernel is Linux, so
# it ran the Linux setup; the macOS writer is run by the netsetup unit test).
cp "$SRC/tests/data/doctor/networksetup_getcurrentlocation_automatic.txt" \
  "$CL/h1/outputs/networksetup_getcurrentlocation.txt"
echo "location Automatic" >>"$WORK/state-h1"
run_distconfig --doctor
[ "$RC" = 0 ] || { cat "$WORK/out"; fail "--doctor in the location setup ran in exited $RC"; }
expect_row ok h1 location Automatic \
  "networksetup -getcurrentlocation: Automatic; $WORK/state-h1: location Automatic"
grep -q '^doctor: 19 check(s), 0 failed, 0 warning(s)$' "$WORK/out" || { cat "$WORK/out"; fail "wrong summary with a location"; }
grep -v '^location ' "$WORK/state-h1" >"$WORK/state.tmp"
echo "location Lab Thunderbolt" >>"$WORK/state.tmp"
mv "$WORK/state.tmp" "$WORK/state-h1"
run_distconfig --doctor
[ "$RC" = 1 ] || fail "--doctor in another location exited $RC"
expect_row fail h1 location Automatic \
  "networksetup -getcurrentlocation: Automatic; $WORK/state-h1: location Lab Thunderbolt"
grep -qxF "fail: h1 location Automatic: the network location is Automatic; distconfig set up the link addresses in Lab Thunderbolt: switching locations makes configd apply the other location's service settings, which can drop addresses set by hand (exo's daemon switches to its \"exo\" location on purpose, exo#2279)" "$WORK/out" ||
  { cat "$WORK/out"; fail "no cause line for the other location"; }
grep -qxF "  fix: switch back: sudo networksetup -switchtolocation 'Lab Thunderbolt', then distconfig --auto-setup (it sets up again what the switch dropped, and verifies); to stay in Automatic, only distconfig --auto-setup (it records Automatic)" "$WORK/out" ||
  { cat "$WORK/out"; fail "no fix line for the other location"; }
run_distconfig --doctor --json
[ "$RC" = 1 ] || fail "--doctor --json in another location exited $RC"
grep -qF '"fix": "switch back: sudo networksetup -switchtolocation '"'Lab Thunderbolt'"', then' "$WORK/out" ||
  { cat "$WORK/out"; fail "--json lacks the location's fix"; }
# Teardown drops the record (and undoes the rest): no state file is left.
run_distconfig --teardown
[ "$RC" = 0 ] || fail "teardown with a location record exited $RC"
[ ! -e "$WORK/state-h1" ] || { cat "$WORK/state-h1"; fail "teardown left h1's state file"; }
rm "$CL/h1/outputs/networksetup_getcurrentlocation.txt"
run_distconfig --auto-setup
[ "$RC" = 0 ] || fail "setup again exited $RC"

# A cut link: both ends report it down.
on 2 ip link set tb3 down
run_distconfig --doctor
[ "$RC" = 1 ] || fail "--doctor with a cut link exited $RC"
expect_row fail h2 link "h2:tb3" "ip -o link show dev tb3: <BROADCAST,MULTICAST>"
expect_row fail h3 link "h3:tb2" "NO-CARRIER"
grep -qxF "fail: h2 link h2:tb3: tb3 is down here (cable unplugged, or the interface disabled)" "$WORK/out" ||
  { cat "$WORK/out"; fail "no cause line for the cut link"; }

# --json: the same verdicts, one document.
run_distconfig --doctor --json
[ "$RC" = 1 ] || fail "--doctor --json with a cut link exited $RC"
grep -q '"schema": "distkit.doctor/1"' "$WORK/out" || fail "no doctor schema in --json"
grep -q '"ok": false' "$WORK/out" || fail "--json says ok with a cut link"
grep -qF '"cause": "tb3 is down here (cable unplugged, or the interface disabled)"' "$WORK/out" ||
  fail "--json lacks the cut link's cause"
grep -qF '"evidence": "ip -o link show dev tb3: <BROADCAST,MULTICAST>"' "$WORK/out" ||
  fail "--json lacks the cut link's evidence"
# ... and the failure in its problems (subject, kind = the check).
grep -A4 -F '"kind": "link",' "$WORK/out" | grep -qF '"subject": "h2:tb3"' ||
  { cat "$WORK/out"; fail "--json problems lack the cut link"; }
on 2 ip link set tb3 up
echo "ok: the doctor names a misrouted hop and a cut link, in the table and in --json"
