# distlaunch rank wrapper (templates/launch_rank.sh), run by /bin/sh on the
# rank's host: POSIX sh for dash and macOS bash 3.2. Keeps the rank's files
# in a private temp dir, runs the command in its own process group, and kills
# that group when the launcher says so or when the launcher is gone (stdin
# EOF without the end marker, or no heartbeat for a few seconds).
# Stdin protocol, one frame per line: "S <secret>" first, then "H" heartbeat,
# "D <n>" + n raw bytes for the rank's stdin, "E" end of that stdin,
# "G <SIGNAL>" signal the group, "T" terminate (TERM, KILL after grace), "K".
# The rank's own heartbeat: once it has created DISTKIT_HEARTBEAT_FILE, no
# update (mtime) for stall_limit seconds is reported as a stall (0: off).
{{exports|raw}}
{{file_contents|raw}}
{{helper|raw}}
# Where the host has perl (every Mac, every Debian), the same wrapper in one
# process (templates/launch_rank.pl): this sh one starts 6-8 programs per
# rank, which on a many-rank host costs more than the SSH channel itself.
if [ {{use_perl}} = 1 ] && command -v perl >/dev/null 2>&1; then
  exec perl -e {{perl_code}} -- {{perl_args|raw}}
fi
rank={{rank}}
stall_limit={{stall_limit}}
grace_ticks={{grace_ticks}}
hb_limit={{heartbeat_limit}}
want_cwd={{cwd}}
cwd_required={{cwd_required}}
stdin_fifo={{stdin_fifo}}
# The host name without a fork where the OS offers it (Linux; per UTS
# namespace), since every rank pays for each program the wrapper starts.
me=
[ -r /proc/sys/kernel/hostname ] && read -r me </proc/sys/kernel/hostname
[ -n "$me" ] || me=$(hostname 2>/dev/null || echo "?")
say() { printf 'distlaunch: rank %s on %s: %s\n' "$rank" "$me" "$1" >&2; }
# A wrapper killed with SIGKILL cannot clean up: remove the dirs of wrappers
# of this host that are gone (owner file: "<owner> <pid>"). The owner is the
# host name plus, where the OS shows it (Linux), the PID namespace: hosts
# that share /tmp but not PIDs (containers, test hosts of the same name)
# must never take each other's live ranks for dead ones.
owner=$me
if [ -e /proc/self/ns/pid ]; then  # no fork for it where there is no /proc (macOS)
  ns=$(readlink /proc/self/ns/pid 2>/dev/null) && [ -n "$ns" ] && owner="$me/$ns"
fi
# One rank of a host per job (local rank 0) is enough.
if [ "${DISTKIT_LOCAL_RANK-0}" = 0 ]; then
  for o in "${TMPDIR:-/tmp}"/distlaunch.*/owner; do
    [ -f "$o" ] || continue
    read -r oh op <"$o" 2>/dev/null || continue
    [ "$oh" = "$owner" ] && [ -n "$op" ] && ! kill -s 0 "$op" 2>/dev/null && rm -rf "${o%/owner}"
  done
fi
d=$(mktemp -d "${TMPDIR:-/tmp}/distlaunch.XXXXXX") || {
  say "cannot create a temp dir; check free space and TMPDIR"; exit 126; }
echo "$owner $$" >"$d/owner"
pid=
# A group is gone when no member is left but zombies (which kill -0 still sees).
gone() {
  kill -s 0 -- "-$pid" 2>/dev/null || return 0
  ps -A -o pgid= -o stat= 2>/dev/null |
    awk -v g="$pid" '$1 == g && $2 !~ /^Z/ { alive = 1 } END { exit alive }'
}
# setsid(1) and perl make the group only after their exec: a signal sent
# before that would miss it, so wait for the group while the rank lives
# (only when signalling: most ranks are never signalled). With job control
# the group exists at the fork, but bash drops a TERM that reaches its new
# subshell before it has reset our traps (1 in 20 in a tight loop): the
# child marks "armed" once its traps are default.
await_group() {
  while { ! kill -s 0 -- "-$pid" 2>/dev/null || [ ! -e "$d/armed" ]; } &&
    kill -s 0 "$pid" 2>/dev/null; do
    sleep 0.01 </dev/null >/dev/null 2>&1 || sleep 1 </dev/null >/dev/null 2>&1
  done
}
stop_group() {
  await_group
  kill -s TERM -- "-$pid" 2>/dev/null || return 0
  i=0
  while [ "$i" -lt "$grace_ticks" ]; do
    gone && return 0
    sleep 0.1 </dev/null >/dev/null 2>&1 || sleep 1 </dev/null >/dev/null 2>&1
    i=$((i + 1))
  done
  kill -s KILL -- "-$pid" 2>/dev/null
  return 0
}
# The reader and the watchdog get KILL, not TERM: dash loses a TERM that
# arrives before a new subshell has reset the traps it inherited from us,
# and a rank that exits at once makes us send it that early. Neither helper
# has anything to clean up.
cleanup() {
  [ -n "$pid" ] && kill -s TERM -- "-$pid" 2>/dev/null
  [ -n "${rpid:-}" ] && kill -s KILL "$rpid" 2>/dev/null
  [ -n "${wpid:-}" ] && kill -s KILL "$wpid" 2>/dev/null
  rm -rf "$d"
}
trap cleanup EXIT
# The launcher may be gone (our stderr is then a broken pipe): a caught
# SIGPIPE keeps us alive to clean up, and is reset to default for the rank.
trap : PIPE
trap '[ -n "$pid" ] && stop_group; exit 129' HUP
trap '[ -n "$pid" ] && stop_group; exit 143' TERM
trap '[ -n "$pid" ] && stop_group; exit 130' INT
# stall_check (each second): the rank's heartbeat file against our mark.
stall_check() {
  [ "$stall_limit" -gt 0 ] && [ -e "$d/heartbeat" ] || return 0
  if [ ! -e "$d/hbmark" ] || [ -n "$(find "$d/heartbeat" -newer "$d/hbmark" 2>/dev/null)" ]; then
    : >"$d/hbmark"
    [ "$stall" -ge "$stall_limit" ] && say "heartbeat resumed after ${stall}s"
    stall=0
  else
    stall=$((stall + 1))
    [ "$stall" = "$stall_limit" ] &&
      say "stalled: no heartbeat for ${stall}s (DISTKIT_HEARTBEAT_FILE not updated)"
  fi
  return 0
}
watchdog() {
  trap '' PIPE
  last= miss=0 stall=0
  while sleep 1 </dev/null >/dev/null 2>&1; do
    stall_check
    v=; read -r v 2>/dev/null <"$d/hb"
    if [ "$v" != "$last" ] || [ -e "$d/busy" ]; then
      last=$v miss=0
    else
      miss=$((miss + 1))
      if [ "$miss" -ge "$hb_limit" ]; then
        # Forked before the start: the rank's pid comes from the file.
        [ -n "$pid" ] || read -r pid 2>/dev/null <"$d/pid"
        if [ -z "$pid" ]; then kill -s TERM $$; return 0; fi
        # Said from the background: with the link cut, a full stderr pipe
        # can block the message for as long as sshd takes to notice, and
        # the rank must be stopped meanwhile (our exit kills this watchdog).
        say "no heartbeat from the launcher for ${hb_limit}s; stopping the rank" &
        stop_group; return 0
      fi
    fi
  done
}
# The watchdog starts before the first frame, which must come within the
# heartbeat limit: when the launcher is killed or its link cut before
# sending it, nothing else would stop us waiting for it until the connection
# itself dies (found by chaos runs). Until the rank runs it has no pid to
# stop, so it ends this shell (TERM trap) instead.
watchdog </dev/null >/dev/null &
wpid=$!
IFS= read -r frame || { say "the launcher closed the connection before the start"; exit 125; }
case $frame in
  "S "*) ;;
  *) say "protocol error: no secret frame from the launcher"; exit 125 ;;
esac
(umask 077 && printf '%s\n' "${frame#S }" >"$d/secret") || {
  say "cannot write $d/secret"; exit 126; }
# A live launcher: the watchdog counts from here (the reader, which takes
# the heartbeats queued meanwhile, starts with the rank).
echo 0 >"$d/hb"
frame=
export DISTKIT_SECRET_FILE="$d/secret"
export DISTKIT_HEARTBEAT_FILE="$d/heartbeat"
{{files|raw}}
if [ -n "$want_cwd" ] && ! cd "$want_cwd" 2>/dev/null; then
  if [ "$cwd_required" = 1 ]; then
    say "cannot cd to $want_cwd; create it there or fix --cwd"; exit 126
  fi
fi
# A rank that gets no stdin reads /dev/null: no FIFO, one program less.
rin=/dev/null
if [ "$stdin_fifo" = 1 ]; then
  mkfifo "$d/stdin" || { say "cannot create a FIFO in $d"; exit 126; }
  rin=$d/stdin
fi
# The command gets a process group of its own: job control where the shell
# offers it without a terminal (bash, macOS sh). dash has none and starts
# background commands with SIGINT/SIGQUIT ignored, which no trap can undo:
# perl (on every Mac and Debian) makes the group and restores them; setsid(1)
# is the last resort (group, but Ctrl-C then reaches the rank only as TERM).
# The child drops our traps before it opens the FIFO (which blocks until the
# reader is up): a TERM arriving then must kill it, not run a trap of ours.
set -m 2>/dev/null
case $- in
  *m*) (trap - HUP INT TERM PIPE; : >"$d/armed"; exec {{command|raw}} <"$rin") &
       pid=$!; set +m ;;
  *) if command -v perl >/dev/null 2>&1; then
       (trap - HUP INT TERM PIPE; : >"$d/armed"
        exec perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; setpgrp(0, 0); my $who = shift;
                      exec { $ARGV[0] } @ARGV;
                      print STDERR "distlaunch: rank $who: cannot run $ARGV[0]: $!\n"; exit 127' \
          "$rank on $me" {{command|raw}} <"$rin") &
     else
       (trap - HUP INT TERM PIPE; : >"$d/armed"; exec setsid {{command|raw}} <"$rin") &
     fi
     pid=$! ;;
esac
printf '@@distlaunch:pid %s\n' "$pid" >&2
echo "$pid" >"$d/pid"
reader() {
  trap '' PIPE
  open=0 n=0
  if [ "$stdin_fifo" = 1 ]; then exec 3>"$d/stdin"; open=1; fi
  while IFS= read -r frame; do
    case $frame in
      H) n=$((n + 1)); echo "$n" >"$d/hb" ;;
      "D "*) : >"$d/busy"
             dd bs=1 count="${frame#D }" of="$d/chunk" 2>/dev/null
             if [ "$open" = 1 ] && ! cat "$d/chunk" >&3 2>/dev/null; then
               open=0; exec 3>&-
             fi
             rm -f "$d/busy" ;;
      E) [ "$open" = 1 ] && exec 3>&-; open=0 ;;
      "G "*) await_group; kill -s "${frame#G }" -- "-$pid" 2>/dev/null ;;
      T) stop_group; return 0 ;;
      K) await_group; kill -s KILL -- "-$pid" 2>/dev/null; return 0 ;;
    esac
  done
  say "lost the launcher (connection closed); stopping the rank" &  # as in watchdog
  stop_group
}
exec 5<&0
reader <&5 5<&- >/dev/null &
rpid=$!
exec 0</dev/null 5<&-
status=0
wait "$pid" || status=$?
# wait returns early when a trapped signal arrives; the traps exit. The rank
# has ended: whatever it left in its group is stopped before we leave.
stop_group
exit "$status"
