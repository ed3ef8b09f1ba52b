# One host's link is cut (no FIN/RST): its ranks die on their own when the
# launcher's heartbeats stop; distlaunch reports the lost host, stops the
# others and exits 255. Nothing remains on any host.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 94$$"
"$DL" --ssh-config "$C/ssh_config" --timeout 60 --hosts "$(host_list 4)" -n 2 -- sh -c "$marker" 2>"$WORK/err" &
pid=$!
expect_eq "$(wait_procs "$marker" 40 10)" 40 "rank processes running (5 per rank)"
"$CLUSTER" cut "$C" 3
start=$(now_ms)
# The cut host's ranks are gone within the heartbeat limit (5 s) + grace.
t=0
while [ $t -lt 100 ]; do
  left=$("$CLUSTER" exec "$C" 3 -- pgrep -c -f "$marker" || true)
  [ "$left" = 0 ] && break
  sleep 0.1; t=$((t + 1))
done
expect_eq "$left" 0 "rank processes left on the cut host"
echo "cut host cleaned up after $(( $(now_ms) - start )) ms"
rc=0
wait $pid || rc=$?
expect_eq "$rc" 255 "exit status"
grep -q "^distlaunch: error: rank [45] on h3 lost its connection" "$WORK/err" || { cat "$WORK/err"; fail "no lost-connection line"; }
"$CLUSTER" uncut "$C" 3
expect_eq "$(wait_procs "$marker" 0 5)" 0 "rank processes left"
echo PASS
