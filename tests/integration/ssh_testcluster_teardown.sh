# testcluster.sh leaves nothing behind: after a normal teardown and after a
# bring-up interrupted half-way, no namespace, bridge or process of that
# cluster remains; and each host has its own hostname, PID view and shims.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

id=$(sed -n 's/^ID=//p' "$C/cluster.env")
# Per-host identity: hostname, PID namespace (init is PID 1), shims.
[ "$("$CLUSTER" exec "$C" 5 -- hostname)" = h5 ] || fail "h5 hostname"
[ "$("$CLUSTER" exec "$C" 5 -- sh -c 'echo $$')" -lt 100 ] || fail "h5 is not in its own PID namespace"
printf 'enabled\n' > "$WORK/h5.rdma_ctl_status.txt"
printf '{"SPThunderboltDataType": []}\n' > "$WORK/h5.system_profiler_SPThunderboltDataType.json"
printf 'Hardware Port: Wi-Fi\n' > "$WORK/h5.networksetup_listallhardwareports.txt"
"$CLUSTER" outputs "$C" 5 "$WORK/h5"
"$TOOL" --ssh-config "$C/ssh_config" --hosts h5 \
  -- 'system_profiler SPThunderboltDataType -json; networksetup -listallhardwareports' > "$WORK/named"
expect_line "$WORK/named" 'h5: out: {"SPThunderboltDataType": []}'
expect_line "$WORK/named" 'h5: out: Hardware Port: Wi-Fi'
"$CLUSTER" delay "$C" 5 700
t0=$(now_ms)
"$TOOL" --ssh-config "$C/ssh_config" --hosts h5 -- 'rdma_ctl status' > /dev/null
[ $(( $(now_ms) - t0 )) -ge 700 ] || fail "delay switch did not slow the shim"
"$TOOL" --ssh-config "$C/ssh_config" --hosts h5,h6 -- 'rdma_ctl status' > "$WORK/shim" || true
expect_line "$WORK/shim" "h5: out: enabled"
expect_line "$WORK/shim" "h6: exit 127"
"$CLUSTER" nosudo "$C" 6
"$TOOL" --ssh-config "$C/ssh_config" --hosts h5,h6 -- 'sudo -n true' > "$WORK/sudo" || true
expect_line "$WORK/sudo" "h5: exit 0"
expect_line "$WORK/sudo" "h6: exit 1"

leftovers() {
  n=$(ip netns list | grep -c "^dk${1}h" || true)
  b=$(ip link show "dkbr$1" 2>/dev/null | grep -c dkbr || true)
  p=$(pgrep -f "$2/h[0-9]*/" | wc -l)
  echo "$n $b $p"
}
"$CLUSTER" down "$C"
[ "$(leftovers "$id" "$C")" = "0 0 0" ] || fail "left behind after down: $(leftovers "$id" "$C")"

# Interrupted bring-up of 12 hosts, then down.
"$CLUSTER" up 12 "$WORK/half" > /dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid 2>/dev/null || true
wait $pid 2>/dev/null || true
"$CLUSTER" down "$WORK/half" >/dev/null 2>&1 || true
sleep 0.2
[ "$(pgrep -f "$WORK/half/h[0-9]*/" | wc -l)" = 0 ] || fail "processes left after interrupted bring-up"
grep -lxF "$WORK/half" /run/distkit-testcluster/*/owner 2>/dev/null && fail "cluster id still allocated"
[ ! -f "$WORK/half/cluster.env" ] || fail "cluster.env left after interrupted bring-up"
echo "PASS"
