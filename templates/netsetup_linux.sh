# Linux steps (iproute2): any named interface (thunderbolt-net's
# thunderbolt0, a veth, an Ethernet port) declared with --links.
has_if() {
  ip link show dev "$1" >/dev/null 2>&1 && return 0
  echo "no interface $1 on this host" >"$NS_ERR"
  return 1
}
ns_link_up() {
  has_if "$1" || { failed "link $1 up"; return; }
  if ip -o link show dev "$1" | grep -q '[<,]UP[,>]'; then same "link $1 up"; return; fi
  attempt "link $1 up" "link $1 up" ip link set dev "$1" up && record "linkup $1"
}
ns_addr() {
  has_if "$1" || { failed "address $2/$3 on $1"; return; }
  if ip -o -4 addr show dev "$1" | grep -qF " inet $2/$3 "; then same "address $2/$3 on $1"; return; fi
  attempt "address $2/$3 on $1" "address $2/$3 on $1" ip addr add "$2/$3" dev "$1" && record "addr $1 $2/$3"
}
route_dev() { ip route get "$1" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p' | sed -n 1p; }
ns_route() {
  if [ "$(route_dev "$2")" = "$1" ]; then same "route to $2 via $1"; return; fi
  attempt "route to $2 via $1" "route to $2 via $1" ip route replace "$2/32" dev "$1" && record "route $1 $2"
}
undo_linkup() {
  if ! ip link show dev "$1" >/dev/null 2>&1; then same "link $1 gone"; return 0; fi
  attempt "link $1 down" "link $1 down" ip link set dev "$1" down
}
undo_addr() {
  if ! ip -o -4 addr show dev "$1" 2>/dev/null | grep -qF " inet $2 "; then same "address $2 not on $1"; return 0; fi
  attempt "removed address $2 from $1" "remove address $2 from $1" ip addr del "$2" dev "$1"
}
undo_route() {
  if ! ip route show "$2/32" dev "$1" 2>/dev/null | grep -q .; then same "no route to $2 via $1"; return 0; fi
  attempt "removed route to $2 via $1" "remove route to $2 via $1" ip route del "$2/32" dev "$1"
}
undo_persist() {
  case $1 in /var/lib/distkit/netsetup.sh|/etc/systemd/system/distkit-netsetup.service) ;; *) echo "$1 is not a file distconfig installs" >"$NS_ERR"; failed "remove $1"; return 1 ;; esac
  if command -v systemctl >/dev/null 2>&1; then systemctl disable "${1##*/}" >/dev/null 2>&1; fi
  attempt "removed $1" "remove $1" rm -f "$1"
}
