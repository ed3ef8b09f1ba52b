# The local quick start without any sshd: 4 ranks from a hostfile naming
# 127.0.0.1 greet, a failing rank's code comes back, nothing is left behind,
# a port a rank needs that is taken here stops the job before it starts;
# piped stdin reaches every rank through a pipe (FIFO), and with stdin
# /dev/null the ranks read /dev/null themselves (no stdin FIFO in their
# temp dirs); ranks run under distkit-agent, the host agent: the one
# beside distlaunch or, with --agent none, distlaunch's own copy in
# the cache; one of another version is refused, never passed over;
# --debug-log records the job; past the open-file limit a rank's error
# says so; a closed stdout (`| head`) ends the job with 141.
. "$(dirname "$0")/launch_lib.sh"
printf '%s\n' '{"backend": "", "envs": [], "hosts": [{"ssh": "127.0.0.1", "ips": ["127.0.0.1"], "rdma": []}]}' \
  > "$WORK/hostfile.json"
"$DL" --hostfile "$WORK/hostfile.json" -n 4 --tag-output -- \
  sh -c 'echo "hello from rank $MLX_RANK of $DISTKIT_WORLD_SIZE on $(hostname)"' > "$WORK/out"
h=$(hostname)
for r in 0 1 2 3; do expect_line "$WORK/out" "[$r 127.0.0.1] hello from rank $r of 4 on $h"; done
expect_eq "$(wc -l < "$WORK/out" | tr -d ' ')" 4 "output lines"

lsdir='cat; ls "${DISTKIT_SECRET_FILE%/*}"; [ -p /dev/stdin ] && echo stdin-pipe; [ -c /dev/stdin ] && echo stdin-null; :'
printf 'typed\n' | "$DL" --hostfile "$WORK/hostfile.json" -n 2 -- sh -c "$lsdir" > "$WORK/out"
expect_eq "$(grep -cx typed "$WORK/out")" 2 "ranks that read the piped line"
expect_eq "$(grep -cx stdin-pipe "$WORK/out")" 2 "ranks reading a pipe with piped stdin"
"$DL" --hostfile "$WORK/hostfile.json" -n 2 -- sh -c "$lsdir" < /dev/null > "$WORK/out"
expect_eq "$(grep -cx secret "$WORK/out")" 2 "secret files"
expect_eq "$(grep -cx stdin "$WORK/out" || true)" 0 "stdin FIFOs with stdin /dev/null"
expect_eq "$(grep -cx stdin-null "$WORK/out")" 2 "ranks reading /dev/null"

marker="sleep 9$$"
rc=0
"$DL" --hostfile "$WORK/hostfile.json" -n 4 -- \
  sh -c "[ \$MLX_RANK = 1 ] && exit 3; $marker" 2>"$WORK/err" || rc=$?
expect_eq "$rc" 3 "exit status"
expect_line "$WORK/err" "distlaunch: error: rank 1 on 127.0.0.1 exited with status 3; stopping the other 3 running rank(s)"
expect_eq "$(pgrep -c -f "$marker" || true)" 0 "processes left"
# Standard output closed by its reader (`| head -1`): the ranks get
# SIGPIPE, as a pipeline's writer would, and distlaunch ends with 141 and
# nothing on stderr (it once ran until killed, its writes failing).
{
  rc=0
  "$DL" --hosts 127.0.0.1 -n 2 -- sh -c "while :; do echo $marker; done" 2>"$WORK/err" || rc=$?
  echo "$rc" >"$WORK/rc"
} | head -n 1 >"$WORK/out"
expect_eq "$(cat "$WORK/rc")" 141 "exit status once stdout is closed"
expect_eq "$(cat "$WORK/out")" "$marker" "the line head read"
[ ! -s "$WORK/err" ] || { cat "$WORK/err"; fail "stderr once stdout is closed"; }
expect_eq "$(pgrep -c -f "$marker" || true)" 0 "processes left once stdout is closed"
# The same job with --debug-log: a timestamped line for each host's agent
# (its hello, its end), each rank's start and end, each stop decision and
# the result; mode 0600.
rc=0
"$DL" --hostfile "$WORK/hostfile.json" -n 2 --debug-log "$WORK/debug.log" -- \
  sh -c "[ \$MLX_RANK = 1 ] && exit 3; $marker" 2>/dev/null || rc=$?
expect_eq "$rc" 3 "exit status with --debug-log"
ts='[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]\{8\}\.[0-9]\{3\}'
for line in "job: distlaunch [^ ]*: 2 rank(s) on 1 host(s): sh -c " \
    "127.0.0.1: agent /.*/distkit-agent, hello $PROTOCOL [^ ]*, os " \
    "rank 0 on 127.0.0.1: started" "rank 1 on 127.0.0.1: started" \
    "rank 1 on 127.0.0.1: ended (pid [1-9][0-9]*): exited with status 3" \
    "job: distlaunch: error: rank 1 on 127.0.0.1 exited with status 3; stopping the other 1 running rank(s)" \
    "rank 0 on 127.0.0.1: told to stop (TERM, KILL after the grace)" \
    "rank 0 on 127.0.0.1: ended (pid [1-9][0-9]*): exited with status 143" \
    "127.0.0.1: agent ended" \
    "job: exit 3: rank 1 on 127.0.0.1 exited with status 3; stopping the other 1 running rank(s)"; do
  grep -q "^$ts $line" "$WORK/debug.log" || { cat "$WORK/debug.log"; fail "debug log: no line '$line'"; }
done
expect_eq "$(find "$WORK/debug.log" -perm 600)" "$WORK/debug.log" "the debug log, mode 0600"
rc=0
"$DL" --hostfile "$WORK/hostfile.json" --debug-log "$WORK/no/such/dir/log" -- true 2>"$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with a debug log that cannot be written"
expect_line "$WORK/err" "distlaunch: error: --debug-log: cannot write $WORK/no/such/dir/log: No such file or directory; give a file in a directory you can write"

# --backend mpi refuses what only distlaunch's own supervision reads
# (mpirun need not be installed: the refusal comes first).
rc=0
"$DL" --hostfile "$WORK/hostfile.json" --backend mpi --record "$WORK/rec" -- true 2>"$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status of --backend mpi with --record"
expect_line "$WORK/err" "distlaunch: error: --record: not used with --backend mpi (mpirun starts, watches and stops the ranks); drop it, or use another backend"
[ ! -e "$WORK/rec" ] || fail "--record wrote $WORK/rec under --backend mpi"

# A port rank 1 needs is taken here: preflight says so, nothing starts.
. "$(dirname "$0")/ports_lib.sh"
port=$(free_port_block 2)
perl -MSocket -e 'socket(S, PF_INET, SOCK_STREAM, 0) or die;
  setsockopt(S, SOL_SOCKET, SO_REUSEADDR, 1); bind(S, sockaddr_in($ARGV[0], INADDR_ANY)) or die;
  listen(S, 1) or die; open(F, ">", $ARGV[1]); close F; sleep 30' $((port + 1)) "$WORK/listening" &
holder=$!
t=0
until [ -e "$WORK/listening" ] || [ $t -ge 50 ]; do sleep 0.1; t=$((t + 1)); done
rc=0
"$DL" --hostfile "$WORK/hostfile.json" -n 2 -p "$port" -- echo started > "$WORK/out" 2> "$WORK/err" || rc=$?
kill "$holder"
expect_eq "$rc" 2 "exit status with a busy port"
expect_line "$WORK/err" "distlaunch: error: 127.0.0.1: port $((port + 1)) (rank 1) is already in use; stop what holds it or pick another --starting-port"
[ ! -s "$WORK/out" ] || fail "a rank started despite the busy port"

# The host agent: distkit-agent beside distlaunch by default (the run
# manifest names it and its hello), and with --agent none the copy
# distlaunch makes in the host's cache, once.
version=$("$DL" --version | cut -d' ' -f2)
parent='ps -o comm= -p $PPID'
expect_eq "$("$DL" --hosts 127.0.0.1 -n 1 -- sh -c "$parent")" distkit-agent "the rank's parent"
"$DL" --hosts 127.0.0.1 -n 1 --record "$WORK/rec" -- true
grep -Eq '^      "agent": "/.*/distkit-agent",?$' "$WORK/rec/manifest.json" ||
  { cat "$WORK/rec/manifest.json"; fail "no agent (an absolute path) in the manifest"; }
expect_line "$WORK/rec/manifest.json" "      \"agent_hello\": \"$PROTOCOL $version\""
export XDG_CACHE_HOME="$WORK/cache"
expect_eq "$("$DL" --hosts 127.0.0.1 -n 2 --agent none --record "$WORK/rec1" -- sh -c "$parent")" \
  "$(printf 'distkit-agent\ndistkit-agent')" "ranks under the copy"
# shellcheck disable=SC2010 # names distlaunch makes (version-hash-hash)
expect_eq "$(ls "$WORK/cache/distkit"/*/distkit-agent | grep -c "/distkit/$version-[0-9a-f]*-[0-9a-f]*/distkit-agent$")" 1 "copies in the cache"
grep -q '"agent_copied": true' "$WORK/rec1/manifest.json" ||
  { cat "$WORK/rec1/manifest.json"; fail "the manifest does not say the agent was copied"; }
"$DL" --hosts 127.0.0.1 -n 1 --agent none --record "$WORK/rec2" -- true
grep -q "\"agent\": \"$WORK/cache/distkit/$version-[0-9a-f]*-[0-9a-f]*/distkit-agent\"" "$WORK/rec2/manifest.json" ||
  { cat "$WORK/rec2/manifest.json"; fail "the second job did not use the cached copy"; }
! grep -q agent_copied "$WORK/rec2/manifest.json" || fail "copied again"
unset XDG_CACHE_HOME
# A distkit-agent of another version refuses the check: a problem with
# the remedy, with or without the checks (exit 2), never the fallback.
mkdir -p "$WORK/old"
printf '#!/bin/sh\necho "distkit-agent: this is distkit 0.9.0 (--protocol=2)" >&2; exit 126\n' > "$WORK/old/distkit-agent"
chmod +x "$WORK/old/distkit-agent"
for flags in "" --no-preflight; do
  rc=0
  # shellcheck disable=SC2086 # $flags: nothing, or one option
  "$DL" --hosts 127.0.0.1 -n 1 --agent "$WORK/old/distkit-agent" $flags -- true 2>"$WORK/err" || rc=$?
  expect_eq "$rc" 2 "exit status with another version's agent ($flags)"
  cat > "$WORK/want" <<WANT
distlaunch: error: 127.0.0.1: $WORK/old/distkit-agent did not start as a host agent of protocol $PROTOCOL (exit 126: distkit-agent: this is distkit 0.9.0 (--protocol=2)); install distkit $version there, or pass --agent none to use distlaunch's own copy
distlaunch: error: preflight: 1 of 1 host(s) without a host agent; fix them as each line says
WANT
  diff "$WORK/want" "$WORK/err" || fail "another version's agent ($flags): report differs"
done
rc=0
"$DL" --hosts 127.0.0.1 -n 1 --agent '' -- true 2>"$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with an empty --agent"
expect_line "$WORK/err" "distlaunch: error: --agent: empty or multi-line path; give the path of distkit-agent on the hosts, or none"

# The launcher's terminal size reaches the ranks as COLUMNS/LINES (MLX
# #3618): from distlaunch's own COLUMNS/LINES, else its terminal (a pty
# of 97x31 under script(1)); none when neither gives one. --verbose gives
# ring ranks MLX_RING_VERBOSE=1.
size='echo "size ${COLUMNS:-none} ${LINES:-none} verbose ${MLX_RING_VERBOSE:-0}"'
COLUMNS=123 LINES=45 "$DL" --hosts 127.0.0.1 -- sh -c "$size" > "$WORK/out" </dev/null
expect_line "$WORK/out" "size 123 45 verbose 0"
env -u COLUMNS -u LINES "$DL" --hosts 127.0.0.1 --verbose -- sh -c "$size" > "$WORK/out" 2>/dev/null </dev/null
expect_line "$WORK/out" "size none none verbose 1"
if command -v script >/dev/null 2>&1; then
  # shellcheck disable=SC2016 # expanded by the shell script(1) runs
  env -u COLUMNS -u LINES script -qec "stty cols 97 rows 31; \"$DL\" --hosts 127.0.0.1 -- sh -c '$size' </dev/null" /dev/null \
    < /dev/null > "$WORK/out" 2>&1 || { cat "$WORK/out"; fail "distlaunch under a pty"; }
  # Not anchored: when the preflight takes over 0.5 s (a sanitizer build),
  # its progress board is drawn on the same pty and erased by escapes that
  # end up at the start of the rank's line.
  grep -q "size 97 31 verbose 0" "$WORK/out" || { cat -v "$WORK/out"; fail "no terminal size from the pty"; }
fi

# MLX_METAL_FAST_SYNCH=1 (older MLX examples set it; MLX's docs now say to
# leave it unset): one warning line, and the job runs with it.
"$DL" --hosts 127.0.0.1 --env MLX_METAL_FAST_SYNCH=1 -- sh -c 'echo "synch $MLX_METAL_FAST_SYNCH"' \
  > "$WORK/out" 2> "$WORK/err" </dev/null
expect_line "$WORK/out" "synch 1"
expect_eq "$(cat "$WORK/err")" "distlaunch: warning: --env: MLX_METAL_FAST_SYNCH=1 can wedge the GPU (MLX #3142, #4005); leave it unset, as MLX's docs now advise" "the warning"

# The stall and restart flags refuse what they do not know (exit 2, naming
# the flag and what it takes), before anything starts.
for bad in "--on-stall maybe" "--restart always" "--stall-timeout -1" "--max-restarts -1" \
  "--health-interval 0" "--health-cmd true --health-url http://x/"; do
  rc=0
  # shellcheck disable=SC2086 # each case is a flag and its value
  "$DL" --hosts 127.0.0.1 $bad -- true >/dev/null 2>"$WORK/err" </dev/null || rc=$?
  expect_eq "$rc" 2 "exit status of $bad"
  flag=${bad%% *}
  grep -q -- "$flag" "$WORK/err" || { cat "$WORK/err"; fail "no line naming $flag for $bad"; }
done
expect_line "$WORK/err" "distlaunch: error: --health-cmd excludes --health-url; see distlaunch --help"

# Durations are checked before any conversion: NaN, infinity, negatives
# and a year's overflow were taken without a word (--timeout nan ran the
# job with an undefined timeout). One line each, exit 2.
for bad in "--grace nan" "--timeout inf" "--exit-window -1" "--connect-timeout 0" \
  "--stall-timeout 1e30" "--health-interval 0.5"; do
  rc=0
  # shellcheck disable=SC2086 # each case is a flag and its value
  "$DL" --hosts 127.0.0.1 $bad -- true >/dev/null 2>"$WORK/err" </dev/null || rc=$?
  expect_eq "$rc" 2 "exit status of $bad"
done
expect_line "$WORK/err" "distlaunch: error: --health-interval: 0.5 is not a number of seconds from 1 to 31536000; e.g. --health-interval 30"
"$DL" --hosts 127.0.0.1 --timeout nan -- true >/dev/null 2>"$WORK/err" </dev/null || true
expect_line "$WORK/err" "distlaunch: error: --timeout: nan is not a number of seconds from 0 to 31536000; e.g. --timeout 30"
"$DL" --hosts 127.0.0.1 --stall-timeout 2.5 -- true >/dev/null 2>"$WORK/err" </dev/null || true
expect_line "$WORK/err" "distlaunch: error: --stall-timeout: 2.5 is not a whole number of seconds; e.g. --stall-timeout 30"
# Integer flags: one check, one line (CLI11 said "Could not convert: --starting-port = 1e9").
rc=0
"$DL" --hosts 127.0.0.1 -p 1e9 -- true >/dev/null 2>"$WORK/err" </dev/null || rc=$?
expect_eq "$rc" 2 "exit status of -p 1e9"
expect_line "$WORK/err" "distlaunch: error: --starting-port: \"1e9\" is not a whole number; give one from 1 to 65535; see distlaunch --help"
"$DL" --hosts 127.0.0.1 -n 0 -- true >/dev/null 2>"$WORK/err" </dev/null || true
expect_line "$WORK/err" "distlaunch: error: --repeat-hosts: 0 is out of range; give a whole number from 1 to 2147483647; see distlaunch --help"

# A failing health command's first line with words is its reason, past
# blank lines: 124, the rank stopped.
rc=0
"$DL" --hosts 127.0.0.1 --grace 1 --health-interval 1 \
  --health-cmd "printf '\\n  model server: out of memory\\n'; exit 1" -- sleep 8$$ \
  >/dev/null 2>"$WORK/err" </dev/null || rc=$?
expect_eq "$rc" 124 "exit status of a failing health command"
expect_line "$WORK/err" "distlaunch: error: job: the health check failed ('printf '\\n  model server: out of memory\\n'; exit 1' exited with status 1: model server: out of memory); stopping every rank"
expect_eq "$(pgrep -c -f "sleep 8$$" || true)" 0 "rank processes left after the health check"

# A progress bar redrawn with '\r' (tqdm) shows while the rank runs, not
# at its end; the bytes come through as the rank wrote them.
"$DL" --hosts 127.0.0.1 -- sh -c 'printf "\rstep 1"; printf "\rstep 2"; sleep 4; echo; echo done' \
  >"$WORK/out" 2>"$WORK/err" </dev/null &
bar=$!
i=0
while [ $i -lt 35 ] && ! grep -q "step 1" "$WORK/out"; do sleep 0.1; i=$((i + 1)); done
grep -q "step 1" "$WORK/out" || { cat "$WORK/err"; fail "no redraw before the rank's end"; }
grep -q "done" "$WORK/out" && fail "the redraw came only at the rank's end"
wait $bar || fail "the progress bar job failed"
printf '\rstep 1\rstep 2\ndone\n' >"$WORK/expected"
cmp "$WORK/expected" "$WORK/out" || { od -c "$WORK/out"; fail "the redraws' bytes changed"; }

# Tokens streamed without a newline (mlx_lm's generate) show on a terminal
# as they come: the rank prints the rest of its line only once the first
# words have shown (or after 10 s, which fails the test).
cat >"$WORK/stream.sh" <<EOF
printf 'The quick'
i=0
while [ ! -e "$WORK/shown" ] && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
echo ' brown fox'
EOF
script -qfec "$DL --hosts 127.0.0.1 -- sh $WORK/stream.sh" "$WORK/tty" </dev/null >/dev/null &
tty_job=$!
i=0
while [ $i -lt 100 ] && ! grep -q "The quick" "$WORK/tty" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
grep -q "brown" "$WORK/tty" && fail "the unended line showed only with its end"
grep -q "The quick" "$WORK/tty" || { cat "$WORK/tty"; fail "the unended line never showed on the terminal"; }
touch "$WORK/shown"
wait $tty_job || fail "the streaming job on a terminal failed"
grep -q "The quick brown fox" "$WORK/tty" || { cat "$WORK/tty"; fail "the line's rest did not continue it"; }
# A file gets whole lines: rank 1's line comes while rank 0's is unended.
"$DL" --hosts 127.0.0.1 -n 2 --tag-output -- sh -c \
  'if [ "$DISTKIT_RANK" = 0 ]; then printf "The quick"; sleep 1; echo " brown fox"; else sleep 0.5; echo x; fi' \
  >"$WORK/out" 2>"$WORK/err" </dev/null || { cat "$WORK/err"; fail "the streaming job to a file failed"; }
printf '[1 127.0.0.1] x\n[0 127.0.0.1] The quick brown fox\n' >"$WORK/expected"
cmp "$WORK/expected" "$WORK/out" || { cat "$WORK/out"; fail "a file got a line in pieces"; }

# A --record directory that cannot be made is refused before the job runs
# (it once failed only after the whole job, with exit 1).
rc=0
"$DL" --hosts 127.0.0.1 --record /dev/null/x -- echo ran >"$WORK/out" 2>"$WORK/err" </dev/null || rc=$?
expect_eq "$rc" 2 "exit status of an unwritable --record"
expect_eq "$(cat "$WORK/out")" "" "output of a job refused for its --record"
expect_line "$WORK/err" "distlaunch: error: /dev/null/x: cannot create the record directory (Not a directory); choose a writable --record directory"

# More ranks than the agent's open-file limit serves (three descriptors a
# rank): exit 126, the job stopped, and the rank's error names the limit.
rc=0
# shellcheck disable=SC3045 # ulimit -n: dash and macOS's sh have it
(ulimit -n 64 && exec "$DL" --hosts 127.0.0.1 -n 40 -- sleep 5) >/dev/null 2>"$WORK/err" </dev/null ||
  rc=$?
expect_eq "$rc" 126 "exit status past the open-file limit"
grep -q "cannot set up the rank's pipes: Too many open files; raise the open-file limit (ulimit -n) or run fewer ranks on this host$" \
  "$WORK/err" || { cat "$WORK/err"; fail "no remedy for the open-file limit"; }
echo PASS
