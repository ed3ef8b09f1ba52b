# The capture writer (format: lib/probe/include/distkit/probe/capture.hpp),
# inserted as {{capture|raw}} into each script that answers with a capture:
# the probe, network setup's state read, the doctor's and watch's checks.
# capture_start BOUNDARY: the header line; the sections use B from then on.
capture_start() { B=$1; printf 'distkit-probe 1 %s\n' "$B"; }
# section NAME COMMAND...: the begin line, the command's stdout, and the end
# line with its exit status. need CMD...: runs CMD, status 127 without it.
section() {
  sn=$1; shift
  printf '%s begin %s\n' "$B" "$sn"
  "$@" </dev/null 2>/dev/null
  printf '\n%s end %s %s\n' "$B" "$sn" "$?"
}
need() { command -v "$1" >/dev/null 2>&1 || return 127; "$@"; }
