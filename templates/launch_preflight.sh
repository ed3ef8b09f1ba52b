# distlaunch preflight (templates/launch_preflight.sh): one round trip per
# host before anything starts. Prints key=value lines; POSIX sh.
# `ports`: the ports this host's ranks will listen on; each is bound once
# (by distlaunch-rank, else perl: on every Mac and Debian) and the taken
# ones are listed as busy=.
cwd={{cwd}}
ports={{ports}}
cmd={{cmd}}
python={{python}}
agent={{agent}}
# The checks' own complaints (a tool missing or failing) are not for the
# launcher: its report is the lines below. Where this channel becomes the
# host agent, its stderr is the agent's, and stderr written here could
# arrive after the agent's first frame (another stream) and be taken for
# the agent's. fd 3 keeps the channel's stderr for the agent.
exec 3>&2 2>/dev/null
# distlaunch-rank, where the host has it: the first candidate that runs and
# passes the check (it tries the ports, which saves a perl start; a copy
# from another distkit version refuses) is reported as helper=, as an
# absolute path, and the ranks are then handed to it directly. Before any
# cd, so a relative --rank-helper means what it means for the ranks.
helper=
for distkit_h in {{helpers|raw}}; do
  case $distkit_h in
    */*) [ -x "$distkit_h" ] || continue ;;
    *) command -v "$distkit_h" >/dev/null 2>&1 || continue ;;
  esac
  # shellcheck disable=SC2086
  if "$distkit_h" --protocol=1 --check-ports $ports </dev/null 2>/dev/null; then
    case $distkit_h in
      /*) helper=$distkit_h ;;
      */*) helper=$PWD/$distkit_h ;;
      *) helper=$(command -v "$distkit_h") ;;
    esac
    printf 'helper=%s\n' "$helper"
    break
  else
    printf 'helper_refused=%s (exit %s)\n' "$distkit_h" "$?"
  fi
done
if command -v sw_vers >/dev/null 2>&1; then
  printf 'os=macOS %s (%s) %s\n' "$(sw_vers -productVersion)" "$(sw_vers -buildVersion)" "$(uname -m)"
else
  printf 'os=%s\n' "$(uname -srm 2>/dev/null)"
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
if [ -n "$ports" ] && [ -z "$helper" ]; then
  if command -v perl >/dev/null 2>&1; then
    # Built-ins only: loading the Socket module costs perl ~9 ms, eight
    # times its start. PF_INET (2) and SOCK_STREAM (1) are the same on
    # Linux and the BSDs (macOS); the socket option numbers and the
    # sockaddr_in layout (BSD: a length byte first) are not. Other systems
    # take the module.
    # shellcheck disable=SC2086
    perl -e 'my @busy;
      my $os = $^O eq "linux" ? "linux" : $^O =~ /darwin|bsd/ ? "bsd" : "";
      my ($sol, $reuse) = $os eq "linux" ? (1, 2) : (0xffff, 4);
      if ($os eq "") { require Socket; ($sol, $reuse) = (Socket::SOL_SOCKET(), Socket::SO_REUSEADDR()) }
      for my $p (@ARGV) {
        my $sa = $os eq "linux" ? pack("S n x12", 2, $p) : $os eq "bsd" ? pack("C C n x12", 16, 2, $p)
                 : Socket::sockaddr_in($p, Socket::INADDR_ANY());
        socket(my $s, 2, 1, 0) or next;
        setsockopt($s, $sol, $reuse, pack("i", 1));
        bind($s, $sa) or push @busy, $p;
        close $s;
      }
      print "busy=@busy\n" if @busy;' $ports </dev/null
  else
    echo "ports=unchecked"
  fi
fi
# Where the launcher runs this host's ranks through a host agent and the
# helper answered, the agent takes over this channel (one channel and login
# shell per host less); the launcher reads the lines above up to the marker.
if [ -n "$agent" ] && [ -n "$helper" ]; then
  echo @@distlaunch:agent
  exec "$helper" --protocol=1 --host-agent "$agent" 2>&3 3>&-
fi
exit 0
