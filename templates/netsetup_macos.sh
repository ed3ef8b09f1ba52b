# macOS steps: ifconfig/route as on a stock Mac. Never run on a real Mac by
# distkit's tests (see man/distconfig.1.md, NETWORK SETUP): pinned by golden
# tests against the reference tool's printed commands.
# The network location the addresses are set up in (networksetup(8):
# "-getcurrentlocation: Displays the name of the current location"; the
# name may hold spaces): one record, replaced when setup runs in another
# location, for the doctor to compare. Nothing is printed (the host is not
# changed); no answer, or more than one line, and nothing is recorded.
ns_location() {
  loc=$(networksetup -getcurrentlocation 2>/dev/null) || return 0
  case $loc in '' | *"
"*) return 0 ;; esac
  recorded "location $loc" && return 0
  if [ -f "$STATE" ]; then grep -v '^location ' "$STATE" >"$STATE.tmp"; mv "$STATE.tmp" "$STATE"; fi
  record "location $loc"
}
has_if() {
  ifconfig "$1" >/dev/null 2>&1 && return 0
  echo "no interface $1 on this host" >"$NS_ERR"
  return 1
}
ns_bridge_out() {
  if ! ifconfig "$1" 2>/dev/null | grep -qF "member: $2 "; then same "$2 not in $1"; return; fi
  attempt "took $2 out of $1" "take $2 out of $1" ifconfig "$1" deletem "$2" && record "bridgeout $1 $2"
}
ns_bridge_down() {
  if ! ifconfig "$1" 2>/dev/null | grep -q 'flags=[0-9a-fA-F]*<UP[,>]'; then same "$1 down"; return; fi
  attempt "$1 down" "$1 down" ifconfig "$1" down && record "bridgedown $1"
}
ns_addr() {
  has_if "$1" || { failed "address $2/$3 on $1"; return; }
  if ifconfig "$1" | grep -qF "inet $2 "; then same "address $2/$3 on $1"; return; fi
  attempt "address $2/$3 on $1" "address $2/$3 on $1" ifconfig "$1" inet "$2" netmask "$4" alias && record "addr $1 $2/$3"
}
route_dev() { route -n get "$1" 2>/dev/null | sed -n 's/^ *interface: *//p' | sed -n 1p; }
# `change` is the fallback when a host route to the peer exists over
# another interface. The plan already avoids every address and route the
# hosts had when it was made, so that route is one the kernel cloned since
# (an ARP entry); teardown deletes ours and the kernel clones again on use.
ns_route() {
  if [ "$(route_dev "$2")" = "$1" ]; then same "route to $2 via $1"; return; fi
  if run route -n add -host "$2" -interface "$1" || run route -n change -host "$2" -interface "$1"; then
    record "route $1 $2"; changed "route to $2 via $1"
  else failed "route to $2 via $1"; fi
}
undo_bridgeout() {
  if ifconfig "$1" 2>/dev/null | grep -qF "member: $2 "; then same "$2 back in $1"; return 0; fi
  attempt "put $2 back in $1" "put $2 back in $1" ifconfig "$1" addm "$2"
}
undo_bridgedown() { attempt "$1 up" "$1 up" ifconfig "$1" up; }
undo_addr() {
  if ! ifconfig "$1" 2>/dev/null | grep -qF "inet ${2%/*} "; then same "address $2 not on $1"; return 0; fi
  attempt "removed address $2 from $1" "remove address $2 from $1" ifconfig "$1" inet "${2%/*}" -alias
}
undo_route() {
  if [ "$(route_dev "$2")" != "$1" ]; then same "no route to $2 via $1"; return 0; fi
  attempt "removed route to $2 via $1" "remove route to $2 via $1" route -n delete -host "$2" -interface "$1"
}
undo_persist() {
  case $1 in /var/db/distkit/netsetup.sh|/Library/LaunchDaemons/com.distkit.netsetup.plist) ;; *) echo "$1 is not a file distconfig installs" >"$NS_ERR"; failed "remove $1"; return 1 ;; esac
  launchctl bootout system "$1" >/dev/null 2>&1
  attempt "removed $1" "remove $1" rm -f "$1"
}
