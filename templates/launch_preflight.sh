# distlaunch preflight (templates/launch_preflight.sh): one round trip per
# host before anything starts. Prints key=value lines; POSIX sh.
# `ports`: the ports this host's ranks will listen on; each is bound once
# (perl: on every Mac and Debian) and the taken ones are listed as busy=.
cwd={{cwd}}
ports={{ports}}
cmd={{cmd}}
python={{python}}
if command -v sw_vers >/dev/null 2>&1; then
  printf 'os=macOS %s (%s) %s\n' "$(sw_vers -productVersion)" "$(sw_vers -buildVersion)" "$(uname -m)"
else
  printf 'os=%s\n' "$(uname -srm 2>/dev/null)"
fi
if [ -n "$cwd" ]; then
  if [ -d "$cwd" ] && cd "$cwd" 2>/dev/null; then
    echo cwd=ok
    g=$(git rev-parse HEAD 2>/dev/null) && echo "git=$g"
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
if [ -n "$ports" ]; then
  if command -v perl >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    perl -MSocket -e 'my @busy;
      for my $p (@ARGV) {
        socket(my $s, PF_INET, SOCK_STREAM, 0) or next;
        setsockopt($s, SOL_SOCKET, SO_REUSEADDR, 1);
        bind($s, sockaddr_in($p, INADDR_ANY)) or push @busy, $p;
        close $s;
      }
      print "busy=@busy\n" if @busy;' $ports </dev/null
  else
    echo "ports=unchecked"
  fi
fi
exit 0
