# distlaunch preflight (templates/launch_preflight.sh): one round trip per
# host before anything starts. Prints key=value lines; POSIX sh. Then, where
# it found distkit-agent, it execs it as the host agent on this channel.
# `ports`: the ports this host's ranks will listen on; distkit-agent
# binds each once and lists the taken ones as busy=. Without it the job
# cannot run here (distlaunch copies its own and checks again, or refuses).
cwd={{cwd}}
ports={{ports}}
cmd={{cmd}}
python={{python}}
agent_timing={{agent_timing}}  # IDLE FIRST_WAIT, two numbers
protocol={{protocol}}
# The checks' own complaints (a tool missing or failing) are not for the
# launcher: its report is the lines below. Where this channel becomes the
# host agent, its stderr is the agent's, and stderr written here could
# arrive after the agent's first frame (another stream) and be taken for
# the agent's. fd 3 keeps the channel's stderr for the agent.
exec 3>&2 2>/dev/null
# distkit-agent: the first candidate that exists and passes the check
# (it tries the ports) is reported as agent=, as
# an absolute path, and becomes the host agent below. One that exists but
# refuses (another distkit version, or not runnable here) ends the search:
# the launcher reports it rather than pass it over. The last candidate is
# the copy distlaunch keeps in this host's cache. Before any cd, so a
# relative --agent means what it means for the ranks.
agent=
for distkit_h in {{candidates|raw}}; do
  case $distkit_h in
    */*) [ -x "$distkit_h" ] || continue ;;
    *) command -v "$distkit_h" >/dev/null 2>&1 || continue ;;
  esac
  # shellcheck disable=SC2086
  if "$distkit_h" "$protocol" --check-ports $ports </dev/null 2>/dev/null; then
    case $distkit_h in
      /*) agent=$distkit_h ;;
      */*) agent=$PWD/$distkit_h ;;
      *) agent=$(command -v "$distkit_h") ;;
    esac
    printf 'agent=%s\n' "$agent"
  else
    printf 'agent_refused=%s (exit %s)\n' "$distkit_h" "$?"
  fi
  break
done
# One uname: "<sysname> <release> <machine>" (none has a space). system=
# is what distlaunch compares with its own before copying its agent.
u=$(uname -srm 2>/dev/null)
# shellcheck disable=SC2086
set -- $u
printf 'system=%s %s\n' "${1:-}" "${3:-}"
if command -v sw_vers >/dev/null 2>&1; then
  printf 'os=macOS %s (%s) %s\n' "$(sw_vers -productVersion)" "$(sw_vers -buildVersion)" "${3:-}"
else
  printf 'os=%s\n' "$u"
fi
if [ -n "$cwd" ]; then
  if [ -d "$cwd" ] && cd "$cwd" 2>/dev/null; then
    echo cwd=ok
    # The commit goes into the run manifest only (--record, --log-dir).
    if [ {{git}} = 1 ]; then g=$(git rev-parse HEAD 2>/dev/null) && echo "git=$g"; fi
  else
    echo cwd=missing
  fi
fi
case $cmd in
  */*) if [ -x "$cmd" ]; then echo cmd=ok; else echo cmd=missing; fi ;;
  *) if command -v "$cmd" >/dev/null 2>&1; then echo cmd=ok; else echo cmd=missing; fi ;;
esac
if [ -n "$python" ]; then
  v=$("$python" --version 2>&1 </dev/null | head -n 1) && echo "python=$v"
  v=$("$python" -c 'import importlib.metadata as m; print(m.version("mlx"))' 2>/dev/null </dev/null) &&
    echo "mlx=$v"
fi
# The agent takes over this channel (one channel and login shell per host
# in all); the launcher reads the lines above up to the marker, then the
# agent's hello.
if [ -n "$agent" ]; then
  echo @@distlaunch:agent
  # shellcheck disable=SC2086
  exec "$agent" "$protocol" --host-agent $agent_timing 2>&3 3>&-
fi
exit 0
