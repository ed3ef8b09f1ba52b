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
  if run ip link set dev "$1" up; then record "linkup $1"; changed "link $1 up"; else failed "link $1 up"; fi
}
ns_addr() {
  has_if "$1" || { failed "address $2/$3 on $1"; return; }
  if ip -o -4 addr show dev "$1" | grep -qF " inet $2/$3 "; then same "address $2/$3 on $1"; return; fi
  if run ip addr add "$2/$3" dev "$1"; then record "addr $1 $2/$3"; changed "address $2/$3 on $1"
  else failed "address $2/$3 on $1"; fi
}
route_dev() { ip route get "$1" 2>/dev/null | sed -n 's/.* dev \([^ ]*\).*/\1/p' | sed -n 1p; }
ns_route() {
  if [ "$(route_dev "$2")" = "$1" ]; then same "route to $2 via $1"; return; fi
  if run ip route replace "$2/32" dev "$1"; then record "route $1 $2"; changed "route to $2 via $1"
  else failed "route to $2 via $1"; fi
}
undo_linkup() {
  if ! ip link show dev "$1" >/dev/null 2>&1; then same "link $1 gone"; return 0; fi
  if run ip link set dev "$1" down; then changed "link $1 down"; return 0; fi
  failed "link $1 down"; return 1
}
undo_addr() {
  if ! ip -o -4 addr show dev "$1" 2>/dev/null | grep -qF " inet $2 "; then same "address $2 not on $1"; return 0; fi
  if run ip addr del "$2" dev "$1"; then changed "removed address $2 from $1"; return 0; fi
  failed "remove address $2 from $1"; return 1
}
undo_route() {
  if ! ip route show "$2/32" dev "$1" 2>/dev/null | grep -q .; then same "no route to $2 via $1"; return 0; fi
  if run ip route del "$2/32" dev "$1"; then changed "removed route to $2 via $1"; return 0; fi
  failed "remove route to $2 via $1"; return 1
}
undo_persist() {
  case $1 in /var/lib/distkit/netsetup.sh|/etc/systemd/system/distkit-netsetup.service) ;; *) echo "$1 is not a file distconfig installs" >"$NS_ERR"; failed "remove $1"; return 1 ;; esac
  if command -v systemctl >/dev/null 2>&1; then systemctl disable "${1##*/}" >/dev/null 2>&1; fi
  if run rm -f "$1"; then changed "removed $1"; return 0; fi
  failed "remove $1"; return 1
}
