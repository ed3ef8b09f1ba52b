# probes/macos.sh: what distconfig asks a macOS host, in one round trip.
# Run by `sh -s -- BOUNDARY LAUNCHER` (POSIX sh; macOS /bin/sh is bash 3.2):
# prints a capture (lib/probe/include/distkit/probe/capture.hpp) with one
# section per command holding its raw stdout and exit status. Commands run
# in parallel into a temporary directory (system_profiler alone takes
# seconds on a real Mac), then the sections are printed in a fixed order.
# No python, no GNU options: only tools a stock Mac has. `ifconfig -a`
# already holds bridge0's members and en1's address, so neither is asked
# separately (fewer processes: probing 16 hosts at once stays cheap).
B=$1
L=$2
[ -n "$L" ] || L=${SSH_CONNECTION%% *}
PATH=$PATH:/usr/sbin:/sbin:/usr/local/bin:/opt/homebrew/bin
export PATH
have() { command -v "$1" >/dev/null 2>&1; }
need() { have "$1" || return 127; "$@"; }
py_ok() {
  p=$(command -v python3) || return 1
  # /usr/bin/python3 is a stub that prints an xcode-select note until the
  # Command Line Tools are installed.
  [ "$p" != /usr/bin/python3 ] || xcode-select -p >/dev/null 2>&1
}
py_version() { py_ok || return 127; python3 --version; }
mlx_version() { py_ok || return 127; python3 -c 'import mlx.core as mx; print(mx.__version__)'; }
route_get() { [ -n "$L" ] || return 2; route -n get "$L"; }
ssh_conn() { printf '%s\n' "${SSH_CONNECTION:-}"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/distkit-probe.XXXXXX" 2>/dev/null) || T=
NAMES=
sec() {
  n=$1; shift
  NAMES="$NAMES $n"
  if [ -n "$T" ]; then
    ( "$@" </dev/null >"$T/$n.out" 2>/dev/null; echo $? >"$T/$n.st" ) &
  else
    printf '%s begin %s\n' "$B" "$n"
    "$@" </dev/null 2>/dev/null
    printf '\n%s end %s %s\n' "$B" "$n" "$?"
  fi
}
printf 'distkit-probe 1 %s\n' "$B"
sec system_profiler_SPThunderboltDataType need system_profiler SPThunderboltDataType -json
sec uname uname -srm
sec hostname hostname
sec hw_model sysctl -n hw.model
sec sw_vers need sw_vers
sec networksetup_listallhardwareports need networksetup -listallhardwareports
sec ibv_devices need ibv_devices
sec ibv_devinfo need ibv_devinfo
sec rdma_ctl_status need rdma_ctl status
sec ifconfig ifconfig -a
sec route_to_launcher route_get
sec ssh_connection ssh_conn
sec ipconfig_getifaddr_en0 need ipconfig getifaddr en0
sec sudo sudo -n true
sec python3_version py_version
sec mlx_version mlx_version
if [ -n "$T" ]; then
  wait
  for n in $NAMES; do
    printf '%s begin %s\n' "$B" "$n"
    cat "$T/$n.out" 2>/dev/null
    s=
    read -r s <"$T/$n.st" 2>/dev/null || s=
    printf '\n%s end %s %s\n' "$B" "$n" "${s:-255}"
  done
  rm -rf "$T"
fi
