# Stall reports: a rank that keeps DISTKIT_HEARTBEAT_FILE updated and then
# stops is reported by rank and host once the --stall-timeout passes, and
# again when it resumes; a rank that never creates the file is not watched;
# --stall-timeout 0 turns the reports off. Locally (no sshd needed).
. "$(dirname "$0")/launch_lib.sh"
h=$(hostname)
job='if [ "$DISTKIT_RANK" = 0 ]; then
  touch "$DISTKIT_HEARTBEAT_FILE"; sleep 0.5; touch "$DISTKIT_HEARTBEAT_FILE"
  sleep 3.6; touch "$DISTKIT_HEARTBEAT_FILE"; sleep 1.5
else sleep 5.5; fi'
"$DL" --hosts 127.0.0.1 -n 2 --no-stdin --stall-timeout 2 -- sh -c "$job" 2> "$WORK/err"
expect_line "$WORK/err" "distlaunch: rank 0 on $h: stalled: no heartbeat for 2s (DISTKIT_HEARTBEAT_FILE not updated)"
grep -qE "^distlaunch: rank 0 on $h: heartbeat resumed after [34]s$" "$WORK/err" ||
  { cat "$WORK/err"; fail "no resumption line"; }
expect_eq "$(grep -c 'rank 1 on' "$WORK/err" || true)" 0 "reports about rank 1 (no heartbeat file)"
expect_eq "$(wc -l < "$WORK/err" | tr -d ' ')" 2 "stderr lines"

"$DL" --hosts 127.0.0.1 -n 1 --no-stdin --stall-timeout 0 -- \
  sh -c 'touch "$DISTKIT_HEARTBEAT_FILE"; sleep 2.5' 2> "$WORK/err0"
[ ! -s "$WORK/err0" ] || { cat "$WORK/err0"; fail "a report with --stall-timeout 0"; }
echo PASS
