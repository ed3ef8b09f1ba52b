#!/bin/sh
# Per-host tool shim of the test cluster (see scripts/testcluster.sh).
# Called as: shim.sh HOSTDIR TOOL ARGS...
# Answers a Mac-only command on a Linux test host from captured output:
#   HOSTDIR/outputs/TOOL[_ARG1_ARG2...].{txt,json}   printed on stdout
#   same name + .exit                                 exit status (default 0)
#   same name + .stderr                               printed on stderr
# Arguments are joined with '_' (spaces and '/' in them become '_' too), like
# the file names of the captured fixtures (ipconfig_getifaddr_en0.txt); see
# below for leading dashes and -json.
# Fault switches: HOSTDIR/delay_ms slows every answer; HOSTDIR/nosudo makes
# `sudo` ask for a password (and fail) like a host without NOPASSWD.
hostdir=$1
tool=$2
shift 2

# Written without pipelines or $(...): the test hosts share this machine's
# cores, and a probe of 16 hosts runs ~150 shims at once; what a shim costs
# is not what a Mac's own command costs on its own CPU (only `sleep` and
# `cat` are started here).
if [ -f "$hostdir/delay_ms" ]; then
  read -r ms <"$hostdir/delay_ms"
  frac=$((ms % 1000 + 1000))
  sleep "$((ms / 1000)).${frac#1}"
fi

if [ "$tool" = sudo ]; then
  if [ -f "$hostdir/nosudo" ]; then
    echo "sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper" >&2
    echo "sudo: a password is required" >&2
    exit 1
  fi
  # Passwordless sudo: drop options such as -n, then run the command as is.
  while [ $# -gt 0 ]; do
    case "$1" in
      -n|-S|-E|-H) shift ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  exec "$@"
fi

# Candidate names, most exact first: the arguments as given
# (networksetup_-listallhardwareports), then with leading dashes dropped
# (networksetup_listallhardwareports, as the captured fixtures are named),
# then also without a "json" argument, which the .json extension carries
# (system_profiler SPThunderboltDataType -json ->
# system_profiler_SPThunderboltDataType.json).
# underscored WORD: WORD with ' ' and '/' turned into '_', in $w.
underscored() {
  w='' rest=$1
  while [ -n "$rest" ]; do
    c=${rest%"${rest#?}"}
    rest=${rest#?}
    case $c in ' ' | /) c=_ ;; esac
    w=$w$c
  done
}
raw=$tool
plain=$tool
nojson=$tool
for a in "$@"; do
  underscored "$a"
  raw="${raw}_$w"
  while :; do case $w in -*) w=${w#-} ;; *) break ;; esac; done
  plain="${plain}_$w"
  [ "$w" = json ] || nojson="${nojson}_$w"
done

answer() {  # answer NAME: print NAME's capture and exit with its status
  o=$hostdir/outputs/$1
  if [ -f "$o.txt" ]; then cat "$o.txt"
  elif [ -f "$o.json" ]; then cat "$o.json"
  elif [ ! -f "$o.exit" ]; then return 0
  fi
  [ -f "$o.stderr" ] && cat "$o.stderr" >&2
  st=0
  [ -f "$o.exit" ] && read -r st <"$o.exit"
  exit "$st"
}
answer "$raw"
answer "$plain"
answer "$nojson"
echo "$tool: no captured output for this host ($plain); add $hostdir/outputs/$plain.txt" >&2
exit 127
