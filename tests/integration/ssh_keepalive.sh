# A link cut while a command runs is noticed through keepalives in bounded
# time (interval x 3), and only that host's command fails.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 2

( sleep 1; "$CLUSTER" cut "$C" 1 ) &
t0=$(now_ms)
rc=0
"$TOOL" --ssh-config "$C/ssh_config" --keepalive 1000 --hosts h1,h2 -- 'sleep 8; echo finished' \
  > "$WORK/out" || rc=$?
wait
[ "$rc" = 1 ] || fail "expected exit 1, got $rc"
expect_line "$WORK/out" "h1: error connection to h1 lost: no answer to 3 keepalives in 3000 ms"
expect_line "$WORK/out" "h2: out: finished"

# A command timeout is reported as such and does not wait for the command.
t0=$(now_ms)
"$TOOL" --ssh-config "$C/ssh_config" --timeout 500 --hosts h2 -- 'sleep 5' > "$WORK/out2" || true
elapsed=$(( $(now_ms) - t0 ))
expect_line "$WORK/out2" "h2: error timed out after 500 ms"
[ "$elapsed" -lt 3000 ] || fail "timeout took $elapsed ms"
# The server dropping an idle session: the next command on it fails with a
# clear message, and the idle session does not spin (CPU time stays low).
( sleep 1; "$CLUSTER" exec "$C" 2 -- pkill -KILL -f 'sshd: root' ) &
rc=0
/usr/bin/time -f '%U %S' -o "$WORK/cpu" "$TOOL" --ssh-config "$C/ssh_config" --hosts h2 \
  --repeat 2 --pause-ms 3000 -- hostname > "$WORK/out3" || rc=$?
wait
[ "$rc" = 1 ] || fail "expected exit 1 after the server went away, got $rc"
expect_line "$WORK/out3" "h2: out: h2"
expect_line "$WORK/out3" "h2: error connection to h2 lost: the server closed the connection"
awk '{ if ($1 + $2 > 0.5) exit 1 }' "$WORK/cpu" || fail "idle session used $(cat "$WORK/cpu") s of CPU"
echo "PASS"
