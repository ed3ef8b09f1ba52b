# One host's link is cut (no FIN/RST): its ranks die on their own when the
# launcher's heartbeats stop; distlaunch reports the lost host, stops the
# others and exits 255. Nothing remains on any host. The same when the link
# is cut while stdin streams to the host. A cut during the preflight fails
# the job (exit 1) before any rank starts.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
marker="sleep 94$$"
"$DL" --ssh-config "$C/ssh_config" --timeout 60 --hosts "$(host_list 4)" -n 2 -- sh -c "$marker" 2>"$WORK/err" &
pid=$!
expect_eq "$(wait_procs "$marker" $((8 * PER_RANK)) 10)" $((8 * PER_RANK)) "rank processes running ($PER_RANK per rank)"
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
# The cut host's agent ends on its own: no frame for the
# heartbeat limit + 1 s (the others saw EOF when distlaunch exited).
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 10)" 0 "host agents left"

# A link cut while stdin streams to the host's ranks: the connection's
# socket fills and a packet stays half-sent; the silence is still noticed
# (exit 255 within the keepalive limit), never waited out.
dd if=/dev/zero bs=65536 count=200000 2>/dev/null |
  "$DL" --ssh-config "$C/ssh_config" --hosts h1 -n 4 -- sh -c "cat >/dev/null; $marker" 2>"$WORK/err" &
pid=$!
sleep 1
"$CLUSTER" cut "$C" 1
start=$(now_ms)
t=0
while kill -0 "$pid" 2>/dev/null && [ $t -lt 200 ]; do sleep 0.1; t=$((t + 1)); done
if kill -0 "$pid" 2>/dev/null; then
  kill -9 "$pid"
  "$CLUSTER" uncut "$C" 1
  fail "distlaunch still running 20 s after the link was cut mid-stdin"
fi
rc=0
wait "$pid" || rc=$?
echo "cut mid-stdin noticed after $(( $(now_ms) - start )) ms"
"$CLUSTER" uncut "$C" 1
expect_eq "$rc" 255 "exit status after a cut mid-stdin"
grep -q "^distlaunch: error: rank [0-3] on h1 lost its connection" "$WORK/err" ||
  { cat "$WORK/err"; fail "no lost-connection line after a cut mid-stdin"; }
expect_eq "$(wait_procs "$marker" 0 10)" 0 "rank processes left after a cut mid-stdin"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 10)" 0 "host agents left after a cut mid-stdin"

# A link cut during the preflight (h2's sw_vers answers after 4 s): a
# runtime failure (exit 1) naming the host, not a configuration error, and
# no rank started anywhere.
"$CLUSTER" delay "$C" 2 4000
rc=0
"$DL" --ssh-config "$C/ssh_config" --hosts "$(host_list 4)" -- sh -c "$marker" 2>"$WORK/err" &
pid=$!
sleep 1
"$CLUSTER" cut "$C" 2
wait $pid || rc=$?
"$CLUSTER" uncut "$C" 2
"$CLUSTER" delay "$C" 2 0
expect_eq "$rc" 1 "exit status after a cut during the preflight"
cat > "$WORK/want" <<WANT
distlaunch: error: h2: preflight failed (connection to h2 lost: no answer to 3 keepalives in 3000 ms); check the host
distlaunch: error: preflight: 1 of 4 host(s) failed during the checks; check them, or leave them out
WANT
diff "$WORK/want" "$WORK/err" || fail "preflight failure report"
expect_eq "$(count_procs "$marker")" 0 "rank processes after a failed preflight"
echo PASS
