# probes/macos.sh: what distconfig asks a macOS host, in one round trip.
# Run by `sh -s -- BOUNDARY LAUNCHER` (POSIX sh; macOS /bin/sh is bash 3.2)
# after probes/common.sh, whose capture writer prints one section per
# command. No python, no GNU options: only tools a stock Mac has.
# `ifconfig -a` already holds bridge0's members and en1's address, so
# neither is asked separately (fewer processes: probing 16 hosts at once
# stays cheap).
L=${2:-${SSH_CONNECTION%% *}}
PATH=$PATH:/usr/sbin:/sbin:/usr/local/bin:/opt/homebrew/bin
export PATH
py_ok() {
  p=$(command -v python3) || return 1
  # /usr/bin/python3 is a stub that prints an xcode-select note until the
  # Command Line Tools are installed.
  [ "$p" != /usr/bin/python3 ] || xcode-select -p >/dev/null 2>&1
}
py_version() { py_ok || return 127; python3 --version; }
mlx_version() { py_ok || return 127; python3 -c 'import mlx.core as mx; print(mx.__version__)'; }
route_get() { [ -n "$L" ] || return 2; route -n get "$L"; }
probe_start "$1"
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
probe_finish
