# A host missing from known_hosts is refused by default (naming the key
# type and fingerprint); with the accept-new opt-in it is accepted, its key
# appended to known_hosts, and from then on it is a known host.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

grep -v '^h4,' "$C/known_hosts" > "$WORK/kh" && cp "$WORK/kh" "$C/known_hosts"
fp=$(ssh-keygen -lf "$C/h4/ssh_host_ed25519_key.pub" | cut -d' ' -f2)
addr=$("$CLUSTER" addr "$C" 4)

rc=0
"$TOOL" --ssh-config "$C/ssh_config" --hostfile "$C/hosts" -- hostname > "$WORK/out" || rc=$?
[ "$rc" = 1 ] || fail "expected exit 1, got $rc"
expect_line "$WORK/out" "h4: connect-error host-key: h4: unknown host key ssh-ed25519 $fp for $addr (not in $C/known_hosts); verify it, then add it with ssh-keyscan or opt in to accepting new host keys"
for k in 1 2 3 5 6 7 8; do expect_line "$WORK/out" "h$k: exit 0"; done
grep -q "^$addr " "$C/known_hosts" && fail "a refused key was written to known_hosts"

"$TOOL" --ssh-config "$C/ssh_config" --accept-new --hostfile "$C/hosts" -- hostname > "$WORK/out2"
expect_line "$WORK/out2" "h4: out: h4"
[ "$(grep -c "^$addr ssh-ed25519 " "$C/known_hosts")" = 1 ] || fail "accepted key not appended exactly once"
# The appended line is the host's real key.
grep "^$addr " "$C/known_hosts" | cut -d' ' -f2,3 > "$WORK/appended"
cut -d' ' -f1,2 "$C/h4/ssh_host_ed25519_key.pub" | cmp -s - "$WORK/appended" || fail "appended key differs"

# Now known: accepted without the opt-in.
"$TOOL" --ssh-config "$C/ssh_config" --hosts h4 -- hostname > "$WORK/out3"
expect_line "$WORK/out3" "h4: out: h4"
echo "PASS"
