# --persist on a Linux host, inside a private mount namespace whose
# /etc/systemd/system and /var/lib are empty tmpfs (so the machine's real
# files are never touched): the emitted setup script installs the boot script and the
# systemd unit, a second run leaves them alone, and the teardown script
# removes both (and the addresses). No systemd runs here, so the unit is
# only written, and the script says so.
. "$(dirname "$0")/netsetup_lib.sh"
ring3_up
run_distconfig --persist --emit-scripts "$WORK/scripts" --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || fail "emit with --persist exited $RC"
on 1 unshare --mount --propagation private sh -c '
  [ -d /etc/systemd/system ] || exit 77
  mount -t tmpfs tmpfs /etc/systemd/system && mount -t tmpfs tmpfs /var/lib || exit 77
  sh "$1/h1.setup.sh" >"$2/first.out"
  sh "$1/h1.setup.sh" >"$2/second.out"
  ls /var/lib/distkit/netsetup.sh /etc/systemd/system/distkit-netsetup.service >"$2/installed" 2>&1
  cp /var/lib/distkit/netsetup.sh "$2/boot.sh"
  sh "$1/h1.teardown.sh" >"$2/teardown.out"
  ls /var/lib/distkit /etc/systemd/system >"$2/left" 2>&1
  true' sh "$WORK/scripts" "$WORK" || { rc=$?; [ "$rc" != 77 ] || exit 77; fail "could not run in a private mount namespace"; }
grep -q "^NS changed boot job /etc/systemd/system/distkit-netsetup.service$" "$WORK/first.out" || fail "first run: $(cat "$WORK/first.out")"
grep -q "^NS note no systemd running here" "$WORK/first.out" || fail "no note about systemd"
grep -q "^NS same boot job /etc/systemd/system/distkit-netsetup.service$" "$WORK/second.out" || fail "second run: $(cat "$WORK/second.out")"
grep -q "^NS changed" "$WORK/second.out" && fail "second run changed something: $(cat "$WORK/second.out")"
[ "$(wc -l <"$WORK/installed")" = 2 ] || fail "not installed: $(cat "$WORK/installed")"
grep -q "^ns_addr tb2 10.213.0.1 30$" "$WORK/boot.sh" || fail "the boot script lacks the address step"
grep -q "^NS changed removed /etc/systemd/system/distkit-netsetup.service$" "$WORK/teardown.out" || fail "teardown: $(cat "$WORK/teardown.out")"
grep -q "^NS changed removed /var/lib/distkit/netsetup.sh$" "$WORK/teardown.out" || fail "teardown: $(cat "$WORK/teardown.out")"
grep -q "^NS changed removed address 10.213.0.1/30 from tb2$" "$WORK/teardown.out" || fail "teardown: $(cat "$WORK/teardown.out")"
grep -q "netsetup" "$WORK/left" && fail "left behind: $(cat "$WORK/left")"
[ ! -e "$WORK/state-h1" ] || fail "state file left: $(cat "$WORK/state-h1")"
echo "ok: persist installs, is idempotent, and teardown removes it"
