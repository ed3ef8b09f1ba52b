# What network setup needs to know of a host before it plans: IPv4
# addresses with prefixes, the routing table, and the records of an
# earlier setup. Printed as a capture (same format as the probes).
B=$1
PATH=/usr/sbin:/sbin:/usr/bin:/bin:$PATH
export PATH
sec() {
  n=$1; shift
  printf '%s begin %s\n' "$B" "$n"
  "$@" </dev/null 2>/dev/null
  s=$?
  printf '\n%s end %s %s\n' "$B" "$n" "$s"
}
printf 'distkit-probe 1 %s\n' "$B"
case $(uname -s) in
  Darwin) sec addrs ifconfig -a; sec routes netstat -rn -f inet ;;
  *) sec addrs ip -o addr show; sec routes ip -4 route show table main ;;
esac
sec state cat {{state_file}}
