# distconfig --watch on the test cluster (a ring of 3 veth "cables" set up
# with --auto-setup) beside a "job" that listens on the job's ports (the
# ring's 32323-32328 and the jaccl coordinator's 32323, distlaunch's
# defaults) on every host: an "other-tool daemon" shim on h2 that wipes
# tb3's address (as exo's io.exo.networksetup does to static addresses,
# exo#2067) is reported as drift within two rounds, --fail-on-drift exits
# 1, every check is in the history file, and the job's ports saw no
# connection at all; then a cut cable is reported down at both ends; then
# h1's network location switching (its networksetup shim answering "exo"
# after the first round) is drift, on its hops' history lines too.
. "$(dirname "$0")/netsetup_lib.sh"
# expect_round FILE LINE WHY: FILE has a line ending in " round LINE"
# (LINE a grep pattern); else FILE is shown and the test fails with WHY.
expect_round() { grep -q " round $2\$" "$1" || { cat "$1"; fail "$3"; }; }
ring3_up
run_distconfig --auto-setup --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || fail "setup exited $RC"
marker="job-ports-$$"
# The job: a listener per host on all of its ports, logging every accept.
k=1
while [ $k -le 3 ]; do
  on $k perl -MIO::Socket::INET -MIO::Select -e '
    my ($log, $marker, @ports) = @ARGV; my $sel = IO::Select->new;
    for my $p (@ports) { $sel->add(IO::Socket::INET->new(LocalPort => $p, Listen => 8,
                                   ReuseAddr => 1, Proto => "tcp") or die "port $p: $!") }
    open(my $fh, ">>", $log) or die; $fh->autoflush(1); print $fh "listening\n";
    while (1) { for my $l ($sel->can_read(1)) { my $c = $l->accept; print $fh "accept " . $l->sockport . "\n" } }' \
    "$WORK/job.h$k" "$marker" 32323 32324 32325 32326 32327 32328 </dev/null >/dev/null 2>"$WORK/job.h$k.err" &
  k=$((k + 1))
done
cluster_extra_cleanup() { for k in 1 2 3; do on_host $k pkill -f "$marker" || true; done; }
t=0
until [ "$(cat "$WORK"/job.h* 2>/dev/null | grep -c listening)" = 3 ] || [ $t -ge 100 ]; do sleep 0.1; t=$((t + 1)); done
[ $t -lt 100 ] || fail "the job's listeners did not start: $(cat "$WORK"/job.h*.err)"

# The job's logs do see a connection (so their silence below means something).
on 1 perl -MIO::Socket::INET -e 'IO::Socket::INET->new(PeerAddr => "10.213.0.2", PeerPort => 32324,
  Proto => "tcp") or die "connect: $!"'
t=0
until grep -q "accept 32324" "$WORK/job.h2" || [ $t -ge 50 ]; do sleep 0.1; t=$((t + 1)); done
[ $t -lt 50 ] || fail "the job's listener on h2 logged no accept"
: >"$WORK/job.h2"

# The test port may not be one of the job's.
run_distconfig --watch 1 --count 1 --test-port 32325 --history "$WORK/h0.jsonl"
[ "$RC" = 2 ] || fail "--test-port inside the job's ports exited $RC"
expect_err "distconfig: error: --test-port: 32325 is one of the job's ports (32323-32328: the ring's and the jaccl coordinator's, from --job-port); pick a port outside that range, e.g. 32322"

set +e
"$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts h1,h2,h3 --links "$WORK/links" \
  --state-file "$WORK/state-%h" --watch 1 --count 30 --fail-on-drift --history "$WORK/history.jsonl" \
  >"$WORK/watch.out" 2>"$WORK/watch.err" &
wpid=$!
set -e
t=0
until grep -q '"round":2,' "$WORK/history.jsonl" 2>/dev/null || [ $t -ge 300 ]; do sleep 0.1; t=$((t + 1)); done
[ $t -lt 300 ] || { cat "$WORK/watch.err"; fail "the watch did not finish two rounds"; }
[ ! -s "$WORK/watch.out" ] || { cat "$WORK/watch.out"; fail "the watch printed changes on a steady ring"; }
# The other-tool daemon shim: every half second, tb3 back to "DHCP" (no address).
on 2 sh -c "while :; do ip addr flush dev tb3; sleep 0.5; done # $marker" </dev/null >/dev/null 2>&1 &
# Counted from the round after the first wipe (under load the shim can
# take a while to start).
t=0
until [ -z "$(on 2 ip -4 -o addr show dev tb3)" ] || [ $t -ge 100 ]; do sleep 0.1; t=$((t + 1)); done
[ $t -lt 100 ] || fail "the shim did not wipe h2's tb3"
seen=$(sed -n 's/.*"round":\([0-9]*\),.*/\1/p' "$WORK/history.jsonl" | sort -n | tail -n 1)
set +e
wait "$wpid"
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$WORK/watch.out" "$WORK/watch.err"; fail "--watch --fail-on-drift exited $rc"; }
drift_round=$(sed -n 's/.* round \([0-9]*\) .*/\1/p' "$WORK/watch.out" | head -n 1)
[ -n "$drift_round" ] || { cat "$WORK/watch.out"; fail "no drift line"; }
[ "$drift_round" -le $((seen + 2)) ] ||
  fail "drift reported in round $drift_round, more than two rounds after round $seen"
# The drift round names the wiped link from h2's side, h3's or both: the
# wipe can land between the two checks of one round, or on h2 between its
# route lookup and its connect (then the connect finds no route).
grep -q -e " h2:tb3 -> h3 (10.213.0.10): route moved from tb3 to none$" \
  -e " h2:tb3 -> h3 (10.213.0.10): down: ENETUNREACH (Network is unreachable)$" \
  -e " h3:tb2 -> h2 (10.213.0.9): down: ETIMEDOUT (Connection timed out)$" "$WORK/watch.out" ||
  { cat "$WORK/watch.out"; fail "the wiped address is not named"; }
expect_line "$WORK/watch.err" "distconfig: error: watch: drift in round $drift_round (--fail-on-drift)"
# One JSON line per hop (6) per round, each with the route it took.
rounds=$(sed -n 's/.*"round":\([0-9]*\),.*/\1/p' "$WORK/history.jsonl" | sort -n | tail -n 1)
expect_eq "$(wc -l <"$WORK/history.jsonl" | tr -d ' ')" $((rounds * 6)) "history lines"
grep -q '"address":"10.213.0.2",.*"route_iface":"tb2"' "$WORK/history.jsonl" || fail "history lacks a route"
# With the address gone for good, one round reports both sides.
run_distconfig --watch 1 --count 1 --history "$WORK/h1.jsonl"
[ "$RC" = 0 ] || fail "--watch --count 1 on the wiped link exited $RC"
expect_round "$WORK/out" "1 h2:tb3 -> h3 (10.213.0.10): down: no route" "the wiped side is not reported down"
expect_round "$WORK/out" "1 h3:tb2 -> h2 (10.213.0.9): down: ETIMEDOUT (Connection timed out)" \
  "the peer's side of the wiped link is not reported down"
# A cut cable: the first round already reports both ends down (exit 0
# without --fail-on-drift).
on 2 pkill -f "ip addr flush dev tb3" || true
on 1 ip link set tb2 down
run_distconfig --watch 1 --count 1 --history "$WORK/h2.jsonl"
[ "$RC" = 0 ] || fail "--watch --count 1 exited $RC"
expect_round "$WORK/out" "1 h1:tb2 -> h2 (10.213.0.2): down: interface down" \
  "the cut cable's h1 end is not reported down"
expect_round "$WORK/out" "1 h2:tb1 -> h1 (10.213.0.1): down: interface down" \
  "the cut cable's h2 end is not reported down"
# A location switch (issue #20): h1 answers from a real capture, then as
# exo's daemon leaves a Mac, in its own "exo" location (exo#2279).
on 1 ip link set tb2 up
run_distconfig --auto-setup --verify-port 32321  # the cut and the daemon undid parts; not a job port
[ "$RC" = 0 ] || fail "setup after the cut exited $RC"
cp "$SRC/tests/data/doctor/networksetup_getcurrentlocation_automatic.txt" \
  "$CL/h1/outputs/networksetup_getcurrentlocation.txt"
set +e
"$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts h1,h2,h3 --links "$WORK/links" \
  --state-file "$WORK/state-%h" --watch 1 --count 4 --fail-on-drift --history "$WORK/h3.jsonl" \
  >"$WORK/watch3.out" 2>"$WORK/watch3.err" &
wpid=$!
set -e
t=0
until grep -q '"round":1,' "$WORK/h3.jsonl" 2>/dev/null || [ $t -ge 300 ]; do sleep 0.1; t=$((t + 1)); done
[ $t -lt 300 ] || { cat "$WORK/watch3.err"; fail "the watch did not finish a round"; }
printf 'exo\n' >"$CL/h1/outputs/networksetup_getcurrentlocation.txt"
set +e
wait "$wpid"
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$WORK/watch3.out" "$WORK/watch3.err"; fail "--fail-on-drift after a location switch exited $rc"; }
expect_round "$WORK/watch3.out" "[234] h1: network location changed from Automatic to exo" \
  "the location switch is not reported"
[ "$(grep -c . "$WORK/watch3.out")" = 1 ] || { cat "$WORK/watch3.out"; fail "more than the location switch printed"; }
grep -q '"changes":\["network location changed from Automatic to exo"\],.*"host":"h1",' "$WORK/h3.jsonl" ||
  fail "the history lacks the location switch on h1's hops"
if grep -q '"changes":\["network location.*"host":"h[23]",' "$WORK/h3.jsonl"; then fail "h1's location switch is on another host's hops"; fi
# The job saw nothing: no accept on any of its ports.
for k in 1 2 3; do
  if grep -q accept "$WORK/job.h$k"; then cat "$WORK/job.h$k"; fail "the watch connected to a job port on h$k"; fi
done
echo "ok: --watch reports a wiped link address in round $drift_round (daemon started after round $seen), job ports untouched"
