# Preflight finds the ports the ranks need taken on remote hosts too: with
# rank 0's port held on h1 and rank 3's on h2, distlaunch starts nothing and
# reports both at once (exit 2), whether an installed distkit-agent or
# the copy distlaunch makes on hosts without one tries them; a
# distkit-agent of another protocol is refused on each host; with
# the ports free the same job runs, with
# per-host progress (event lines under --verbose, a live board on a TTY).
. "$(dirname "$0")/launch_lib.sh"
cluster_up 2
base=$((40000 + $$ % 20000))
marker="hold-port-$$"
# hold K PORT: a listener on host K, killed at exit.
hold() {
  on_host "$1" perl -MSocket -e 'socket(S, PF_INET, SOCK_STREAM, 0) or die;
    setsockopt(S, SOL_SOCKET, SO_REUSEADDR, 1); bind(S, sockaddr_in($ARGV[0], INADDR_ANY)) or die;
    listen(S, 1) or die; sleep 60' "$2" "$marker" </dev/null >/dev/null 2>&1 &
}
cluster_extra_cleanup() { k=1; while [ $k -le 2 ]; do on_host $k pkill -f "$marker" || true; k=$((k + 1)); done; }
hold 1 "$base"
hold 2 $((base + 3))
t=0
until [ "$(count_procs "$marker")" = 2 ] || [ $t -ge 50 ]; do sleep 0.1; t=$((t + 1)); done
sleep 0.3  # listening
rc=0
dl --hosts h1,h2 -n 2 -p "$base" -- sh -c 'echo started' > "$WORK/out" 2> "$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with busy ports"
cat > "$WORK/want" <<WANT
distlaunch: error: h1: port $base (rank 0) is already in use; stop what holds it or pick another --starting-port
distlaunch: error: h2: port $((base + 3)) (rank 3) is already in use; stop what holds it or pick another --starting-port
distlaunch: error: preflight: 2 problem(s) found; fix them, or skip the checks with --no-preflight
WANT
diff "$WORK/want" "$WORK/err" || fail "preflight report differs"
[ ! -s "$WORK/out" ] || fail "a rank started despite the busy ports"
# The preflight's channels had become host agents: they end with the job.
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left after the preflight refused the job"
# The same on hosts where no distkit-agent is installed: distlaunch
# copies its own there, whose check finds the ports taken.
rc=0
dl --hosts h1,h2 -n 2 -p "$base" --agent none -- sh -c 'echo started' > "$WORK/out" 2> "$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with busy ports (the copy's check)"
diff "$WORK/want" "$WORK/err" || fail "preflight report differs (the copy's check)"
[ ! -s "$WORK/out" ] || fail "a rank started despite the busy ports (the copy's check)"
cluster_extra_cleanup
t=0
until [ "$(count_procs "$marker")" = 0 ] || [ $t -ge 50 ]; do sleep 0.1; t=$((t + 1)); done
dl --hosts h1,h2 -n 2 -p "$base" --verbose --record "$WORK/rec" -- sh -c 'echo started' > "$WORK/out" 2> "$WORK/err"
expect_eq "$(grep -c '^started$' "$WORK/out")" 4 "ranks started with the ports free"
# Both hosts' ranks went to the distkit-agent the preflight found there.
expect_eq "$(grep -c '^      "agent": "/.*/distkit-agent"' "$WORK/rec/manifest.json")" 2 \
  "hosts whose ranks ran under distkit-agent"
# A distkit-agent of another protocol (distkit 0.9.0's hello, protocol 2):
# refused on each host with the remedy, never passed over; nothing starts.
mkdir -p "$WORK/old"
cat > "$WORK/old/distkit-agent" <<'OLD'
#!/bin/sh
printf 'V 2 0.9.0\n'
exec cat >/dev/null
OLD
chmod +x "$WORK/old/distkit-agent"
version=$("$DL" --version | cut -d' ' -f2)
rc=0
dl --hosts h1,h2 -n 2 -p "$base" --agent "$WORK/old/distkit-agent" -- sh -c 'echo started' > "$WORK/out2" 2> "$WORK/err2" || rc=$?
expect_eq "$rc" 2 "exit status with an agent of another protocol"
[ ! -s "$WORK/out2" ] || fail "a rank started under an agent of another protocol"
for h in h1 h2; do
  expect_line "$WORK/err2" "distlaunch: error: $h: $WORK/old/distkit-agent speaks host-agent protocol 2 (distkit 0.9.0), this distlaunch $PROTOCOL (distkit $version); install distkit $version there, or pass --agent none to use distlaunch's own copy"
done
expect_line "$WORK/err2" "distlaunch: error: preflight: 2 of 2 host(s) without a host agent; fix them as each line says"
# Per-host progress: plain event lines under --verbose when not on a TTY.
for h in h1 h2; do
  for event in connecting checking "done: ready"; do expect_line "$WORK/err" "$h: $event"; done
done
# On a TTY (script(1)), a board redrawn in place while a host is slow.
if command -v script >/dev/null 2>&1; then
  "$CLUSTER" delay "$C" 2 1500
  script -qc "'$DL' --ssh-config '$C/ssh_config' --hosts h1,h2 -- echo started" /dev/null > "$WORK/tty"
  "$CLUSTER" delay "$C" 2 0
  grep -q "checking 2 hosts (" "$WORK/tty" || { cat -v "$WORK/tty"; fail "no progress board on a TTY"; }
  expect_eq "$(grep -c "started" "$WORK/tty")" 2 "rank output on the TTY"
fi
echo PASS
