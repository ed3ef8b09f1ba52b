# A host whose key differs from known_hosts is refused with its name, key
# type and SHA256 fingerprint (as ssh-keygen -l prints it); the other hosts
# still run the command. Hashed known_hosts entries are checked the same way.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

# h2's entry now holds h3's key.
key3=$(grep '^h3,' "$C/known_hosts" | cut -d' ' -f2-)
sed "s|^\(h2,[^ ]*\) .*|\1 $key3|" "$C/known_hosts" > "$WORK/kh" && cp "$WORK/kh" "$C/known_hosts"
fp=$(ssh-keygen -lf "$C/h2/ssh_host_ed25519_key.pub" | cut -d' ' -f2)
addr=$("$CLUSTER" addr "$C" 2)

rc=0
"$TOOL" --ssh-config "$C/ssh_config" --hostfile "$C/hosts" -- hostname > "$WORK/out" || rc=$?
[ "$rc" = 1 ] || fail "expected exit 1, got $rc"
expect_line "$WORK/out" "h2: connect-error host-key: h2: host key changed: $addr now offers ssh-ed25519 $fp, which does not match $C/known_hosts; if the host was reinstalled, remove the old entry (ssh-keygen -R $addr -f $C/known_hosts) and reconnect"
for k in 1 3 4 5 6 7 8; do expect_line "$WORK/out" "h$k: exit 0"; done
grep -q '^h2: out' "$WORK/out" && fail "h2 ran the command despite a changed key"

# Accepting new keys never accepts a changed one.
rc=0
"$TOOL" --ssh-config "$C/ssh_config" --accept-new --hosts h2 -- hostname > "$WORK/out2" || rc=$?
[ "$rc" = 1 ] || fail "changed key accepted with --accept-new"
grep -q '^h2: connect-error host-key: h2: host key changed' "$WORK/out2" || fail "no host-key error with --accept-new"

# Hashed entries (ssh-keygen -H): the right key matches, the wrong one is refused.
cp "$C/known_hosts" "$WORK/kh"
ssh-keygen -q -H -f "$C/known_hosts" >/dev/null 2>&1
grep -q '^|1|' "$C/known_hosts" || fail "known_hosts was not hashed"
rc=0
"$TOOL" --ssh-config "$C/ssh_config" --hosts h1,h2 -- hostname > "$WORK/out3" || rc=$?
expect_line "$WORK/out3" "h1: out: h1"
grep -q "^h2: connect-error host-key: h2: host key changed: $addr now offers ssh-ed25519 $fp" "$WORK/out3" \
  || { cat "$WORK/out3"; fail "hashed mismatch not refused"; }
echo "PASS"
