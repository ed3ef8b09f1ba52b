# A stand-in Mac for running the macOS setup/teardown scripts on Linux:
# shell functions named ifconfig, route and networksetup (functions win
# over PATH) that
# answer from real captures (tests/data/netsetup: bridge0 with members
# en2, en3, en4 and an address; a Thunderbolt interface) and keep what the
# script changes in files under $FAKE. The `route -n get` answer
# ("interface: enX") follows lib/probe's route-get parser: the fixtures
# hold no real capture of it. networksetup -getcurrentlocation answers
# from tests/data/doctor's capture. Sourced before the script under test.
networksetup() {
  [ "$1" = -getcurrentlocation ] || return 64
  cat "$DATA/../doctor/networksetup_getcurrentlocation_automatic.txt"
}
ifconfig() {
  if [ $# = 1 ]; then
    if [ "$1" = bridge0 ]; then
      out=$(cat "$DATA/ifconfig_bridge0_macmini_3members_ip_mtu9000_mlx1903.txt")
      for m in en2 en3 en4; do
        grep -qx "$m" "$FAKE/members" || out=$(printf '%s\n' "$out" | grep -v "member: $m ")
      done
      [ ! -f "$FAKE/bridge_down" ] || out=$(printf '%s\n' "$out" | sed 's/flags=8863<UP,/flags=8822</')
      printf '%s\n' "$out"
      return 0
    fi
    case $1 in en[0-9]*) ;; *) echo "ifconfig: interface $1 does not exist" >&2; return 1 ;; esac
    sed "s/^en2:/$1:/" "$DATA/ifconfig_en2_tb_interface_apple_tn3205.txt"
    cat "$FAKE/addr_$1" 2>/dev/null
    return 0
  fi
  echo "ifconfig $*" >>"$FAKE/log"
  case "$2" in
    deletem) grep -vx "$3" "$FAKE/members" >"$FAKE/m"; mv "$FAKE/m" "$FAKE/members" ;;
    addm) echo "$3" >>"$FAKE/members" ;;
    down) : >"$FAKE/bridge_down" ;;
    up) rm -f "$FAKE/bridge_down" ;;
    inet)
      if [ "$4" = -alias ]; then grep -v "inet $3 " "$FAKE/addr_$1" >"$FAKE/a"; mv "$FAKE/a" "$FAKE/addr_$1"
      else printf '\tinet %s netmask 0xfffffffc broadcast x\n' "$3" >>"$FAKE/addr_$1"; fi ;;
  esac
}
route() {
  if [ "$2" = get ]; then
    r=$(grep "^$3 " "$FAKE/routes" 2>/dev/null) || { echo "route: writing to routing socket: not in table" >&2; return 1; }
    printf '   route to: %s\n  interface: %s\n' "$3" "${r#* }"
    return 0
  fi
  echo "route $*" >>"$FAKE/log"
  case "$2" in
    add) echo "$4 $6" >>"$FAKE/routes" ;;
    delete) grep -v "^$4 " "$FAKE/routes" >"$FAKE/r"; mv "$FAKE/r" "$FAKE/routes" ;;
  esac
}
