# A host whose sshd is stopped and a host whose link is cut are each
# reported (with the address tried) within the connect timeout, while the
# other six hosts run the command.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

"$CLUSTER" stop-sshd "$C" 3
"$CLUSTER" cut "$C" 6
a3=$("$CLUSTER" addr "$C" 3)
a6=$("$CLUSTER" addr "$C" 6)

t0=$(now_ms)
rc=0
"$TOOL" --ssh-config "$C/ssh_config" --connect-timeout 2000 --hostfile "$C/hosts" -- hostname \
  > "$WORK/out" || rc=$?
elapsed=$(( $(now_ms) - t0 ))
[ "$rc" = 1 ] || fail "expected exit 1, got $rc"
expect_line "$WORK/out" "h3: connect-error unreachable: h3: cannot connect to $a3 port 22: Connection refused; check that sshd runs there and the port is right"
expect_line "$WORK/out" "h6: connect-error timeout: h6: no answer from $a6 port 22 within 2000 ms; check that the host is up and its network link"
for k in 1 2 4 5 7 8; do expect_line "$WORK/out" "h$k: out: h$k"; done
# Connect timeout 2 s, hosts in parallel: the whole run stays well under 2 x.
[ "$elapsed" -lt 3500 ] || fail "took $elapsed ms with a 2000 ms connect timeout"

# ssh_config's ConnectTimeout wins over the caller's default.
sed 's/^  BatchMode yes/  BatchMode yes\n  ConnectTimeout 1/' "$C/ssh_config" > "$WORK/cfg1"
"$TOOL" --ssh-config "$WORK/cfg1" --connect-timeout 9000 --hosts h6 -- true > "$WORK/out2" || true
expect_line "$WORK/out2" "h6: connect-error timeout: h6: no answer from $a6 port 22 within 1000 ms; check that the host is up and its network link"

# Back up: the same hosts work again.
"$CLUSTER" start-sshd "$C" 3
"$CLUSTER" uncut "$C" 6
"$TOOL" --ssh-config "$C/ssh_config" --connect-timeout 2000 --hosts h3,h6 -- hostname > "$WORK/out3"
expect_line "$WORK/out3" "h3: out: h3"
expect_line "$WORK/out3" "h6: out: h6"
echo "PASS"
