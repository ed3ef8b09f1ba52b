# What network setup needs to know of a host before it plans: IPv4
# addresses with prefixes, the routing table, and the records of an
# earlier setup. Printed as a capture (same format as the probes).
PATH=/usr/sbin:/sbin:/usr/bin:/bin:$PATH
export PATH
{{capture|raw}}
capture_start "$1"
case $(uname -s) in
  Darwin) section addrs ifconfig -a; section routes netstat -rn -f inet ;;
  *) section addrs ip -o addr show; section routes ip -4 route show table main ;;
esac
section state cat {{state_file}}
