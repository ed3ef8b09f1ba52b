# The host agent on hosts where distkit is not installed: with the
# installed distkit-agent hidden (--agent none), distlaunch copies
# its own into each host's cache (once) and the job runs under it; a host
# of another system (h2 answering `uname` as an Apple Silicon Mac does:
# Darwin, arm64) cannot run that copy and is refused in one line naming it
# and the fix, and nothing starts anywhere.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 2
version=$("$DL" --version | cut -d' ' -f2)
# The rank prints its parent's command line: the agent's.
dl --hosts h1,h2 -n 2 --agent none --record "$WORK/rec" -- \
  sh -c 'ps -o args= -p $PPID' > "$WORK/out" 2> "$WORK/err"
expect_eq "$(grep -c "/.cache/distkit/$version-[0-9a-f]*-[0-9a-f]*/distkit-agent --protocol=5 --host-agent$" "$WORK/out")" 4 \
  "ranks under the copied agent"
expect_eq "$(grep -c '"agent_copied": true' "$WORK/rec/manifest.json")" 2 "hosts the agent was copied to"
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; fail "unexpected messages"; }
for k in 1 2; do
  expect_eq "$(on_host $k sh -c 'ls -a "$HOME"/.cache/distkit/*/' | grep -c distkit-agent)" 1 \
    "files in h$k's cache (the copy, no leftover)"
done
# The next job finds the copies: nothing is copied again.
dl --hosts h1,h2 -n 1 --agent none --record "$WORK/rec2" -- true
expect_eq "$(grep -c agent_copied "$WORK/rec2/manifest.json" || true)" 0 "hosts copied to again"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left"

# h2 as an arm64 Mac, with no copy yet: refused; h1 alone would have run.
on_host 2 sh -c 'rm -rf "$HOME/.cache/distkit"'
cat > "$C/h2/shims/uname" <<'SHIM'
#!/bin/sh
# uname on an Apple Silicon Mac: Darwin, 24.6.0, arm64.
case $* in
  -srm) echo "Darwin 24.6.0 arm64" ;;
  -sm) echo "Darwin arm64" ;;
  *) exec /bin/uname "$@" ;;
esac
SHIM
chmod 755 "$C/h2/shims/uname"
rc=0
dl --hosts h1,h2 -n 1 --agent none -- echo started > "$WORK/out" 2> "$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with a host the copy cannot serve"
cat > "$WORK/want" <<WANT
distlaunch: error: h2: no distkit-agent there, and it runs Darwin arm64, this distlaunch $(uname -s) $(uname -m), so distlaunch's own cannot run there; install distkit on h2 (see README: hosts), or name its distkit-agent with --agent
distlaunch: error: preflight: 1 of 2 host(s) without a host agent; fix them as each line says
WANT
# (The shim also makes the hosts' OS lines differ: a warning, not checked.)
grep -v '^distlaunch: warning: hosts differ in OS' "$WORK/err" | diff "$WORK/want" - || fail "refusal differs"
[ ! -s "$WORK/out" ] || fail "a rank started"
expect_eq "$(on_host 2 sh -c 'ls "$HOME/.cache/distkit" 2>/dev/null | wc -l')" 0 "files copied to h2"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 3)" 0 "host agents left after the refusal"
echo PASS
