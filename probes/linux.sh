# probes/linux.sh: what distconfig asks a Linux host, in one round trip.
# Same contract as probes/macos.sh (sh -s -- BOUNDARY LAUNCHER, after
# probes/common.sh; capture on stdout). Thunderbolt/USB4 and RDMA devices come from sysfs where present.
L=${2:-${SSH_CONNECTION%% *}}
PATH=$PATH:/usr/sbin:/sbin:/usr/local/bin
export PATH
host_name() { if have hostname; then hostname; else uname -n; fi; }
route_get() { [ -n "$L" ] || return 2; need ip route get "$L"; }
tb_sysfs() {
  [ -d /sys/bus/thunderbolt/devices ] || return 1
  for d in /sys/bus/thunderbolt/devices/*; do
    [ -e "$d/unique_id" ] || continue
    printf '%s\t%s\t%s\t%s\n' "${d##*/}" "$(cat "$d/unique_id" 2>/dev/null)" \
      "$(cat "$d/device_name" 2>/dev/null)" "$(cat "$d/vendor_name" 2>/dev/null)"
  done
}
ib_sysfs() {
  [ -d /sys/class/infiniband ] || return 1
  for p in /sys/class/infiniband/*/ports/*; do
    [ -e "$p/state" ] || continue
    d=${p%/ports/*}
    printf '%s\t%s\t%s\n' "${d##*/}" "${p##*/}" "$(cat "$p/state" 2>/dev/null)"
  done
}
probe_start "$1"
sec uname uname -srm
sec hostname host_name
sec hw_model cat /sys/devices/virtual/dmi/id/product_name
sec os_release cat /etc/os-release
if have ip; then sec ip_addr ip -o addr show; else sec ifconfig need ifconfig -a; fi
sec route_to_launcher route_get
sec ssh_connection ssh_conn
sec thunderbolt_sysfs tb_sysfs
sec infiniband_sysfs ib_sysfs
sec ibv_devices need ibv_devices
sec ibv_devinfo need ibv_devinfo
sec sudo sudo -n true
sec python3_version need python3 --version
sec mlx_version need python3 -c 'import mlx.core as mx; print(mx.__version__)'
probe_finish
