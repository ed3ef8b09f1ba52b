# probes/common.sh: the parallel capture writer shared by probes/macos.sh
# and probes/linux.sh (sent ahead of both by templates/distconfig_probe.sh,
# after templates/capture_writer.sh, whose section it runs per command).
# Commands run in parallel into a temporary directory (system_profiler
# alone takes seconds on a real Mac); the sections are printed in a fixed
# order. Without a writable temp dir, commands run one by one instead.
have() { command -v "$1" >/dev/null 2>&1; }
ssh_conn() { printf '%s\n' "${SSH_CONNECTION:-}"; }
# probe_start BOUNDARY
probe_start() {
  T=$(mktemp -d "${TMPDIR:-/tmp}/distkit-probe.XXXXXX" 2>/dev/null) || T=
  NAMES=
  capture_start "$1"
}
# sec NAME COMMAND...: one section, in the background into its own file
# (so one `cat` prints them all) when there is a temp dir.
sec() {
  NAMES="$NAMES $1"
  if [ -n "$T" ]; then
    section "$@" >"$T/$1" &
  else
    section "$@"
  fi
}
# probe_finish: waits for the parallel sections and prints them in order.
probe_finish() {
  [ -n "$T" ] || return 0
  wait
  set --
  for n in $NAMES; do set -- "$@" "$T/$n"; done
  cat "$@"
  rm -rf "$T"
}
