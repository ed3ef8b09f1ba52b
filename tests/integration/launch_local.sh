# The local quick start without any sshd: 4 ranks from a hostfile naming
# 127.0.0.1 greet, a failing rank's code comes back, nothing is left behind,
# a port a rank needs that is taken here stops the job before it starts;
# piped stdin reaches every rank through a pipe (FIFO), and with stdin
# /dev/null the ranks read /dev/null themselves (no stdin FIFO in their
# temp dirs); ranks run under distlaunch-rank (beside distlaunch) or, with
# --rank-helper none, the perl wrapper.
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

# The rank wrapper: distlaunch-rank beside distlaunch by default, perl with
# --rank-helper none; an empty path is a usage error that names the fix.
parent='ps -o comm= -p $PPID'
expect_eq "$("$DL" --hosts 127.0.0.1 -n 1 -- sh -c "$parent")" distlaunch-rank "default wrapper"
expect_eq "$("$DL" --hosts 127.0.0.1 -n 1 --rank-helper none -- sh -c "$parent")" perl \
  "wrapper with --rank-helper none"
# The preflight found it (the run manifest names it).
"$DL" --hosts 127.0.0.1 -n 1 --record "$WORK/rec" -- true
grep -Eq '^      "rank_helper": "/.*/distlaunch-rank",?$' "$WORK/rec/manifest.json" ||
  { cat "$WORK/rec/manifest.json"; fail "no rank_helper (an absolute path) in the manifest"; }
# A distlaunch-rank of another version: the preflight passes it over (the
# perl wrapper runs the rank); without the preflight it refuses, naming the fix.
mkdir -p "$WORK/old"
printf '#!/bin/sh\necho "distlaunch: rank ?: this host'"'"'s distlaunch-rank speaks --protocol=0, the launcher $1; install the same distkit version on every host" >&2\nexit 126\n' > "$WORK/old/distlaunch-rank"
chmod +x "$WORK/old/distlaunch-rank"
expect_eq "$("$DL" --hosts 127.0.0.1 -n 1 --rank-helper "$WORK/old/distlaunch-rank" -- sh -c "$parent" 2>"$WORK/err")" perl \
  "wrapper when the helper there is of another version"
expect_line "$WORK/err" "distlaunch: warning: 127.0.0.1: $WORK/old/distlaunch-rank (exit 126) failed the check (another distkit version?); its ranks use the perl or sh wrapper; install the same distkit version there"
rc=0
"$DL" --hosts 127.0.0.1 -n 1 --rank-helper "$WORK/old/distlaunch-rank" --no-preflight -- true 2>"$WORK/err" || rc=$?
expect_eq "$rc" 126 "exit status with another version's helper and no preflight"
grep -q "speaks --protocol=0, the launcher --protocol=1; install the same distkit version" "$WORK/err" ||
  { cat "$WORK/err"; fail "no protocol message"; }
rc=0
"$DL" --hosts 127.0.0.1 -n 1 --rank-helper '' -- true 2>"$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status with an empty --rank-helper"
expect_line "$WORK/err" "distlaunch: error: --rank-helper: empty or multi-line path; give the path of distlaunch-rank on the hosts, or none"
echo PASS
