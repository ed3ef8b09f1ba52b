# free_port_block N (sourced, POSIX sh): prints the first of N consecutive
# TCP ports on this machine that nothing listens on, for tests whose ranks
# bind in the host's own network namespace (127.0.0.1).
#
# Why not just "$$ % something": ctest runs tests in parallel, and a port in
# the kernel's ephemeral range (Linux 32768-60999) can be taken at any moment
# by any outgoing connection, ssh included; CI lost a run that way. So the
# block is picked below that range, starting at a place derived from this
# shell's pid (parallel tests start apart), and skipped while any of its ports
# has a listener. What is left is the short window between the pick and the
# ranks' bind, which only another test picking the same block could hit.
free_port_block() {
  n=${1:-1}
  listening=$(listening_ports)
  slots=$(( (32000 - 20000) / 16 ))
  slot=$(( ($$ * 7) % slots ))
  tries=0
  while [ "$tries" -lt "$slots" ]; do
    base=$((20000 + slot * 16))
    i=0
    clash=""
    while [ "$i" -lt "$n" ]; do
      case " $listening " in *" $((base + i)) "*) clash=1; break ;; esac
      i=$((i + 1))
    done
    [ -z "$clash" ] && { echo "$base"; return 0; }
    slot=$(( (slot + 1) % slots ))
    tries=$((tries + 1))
  done
  echo "free_port_block: no block of $n free ports in 20000-32000" >&2
  return 1
}

# Every TCP port in LISTEN state here, space separated (Linux /proc; on
# other systems nothing, and the pick relies on its range and spread alone).
listening_ports() {
  for f in /proc/net/tcp /proc/net/tcp6; do
    [ -r "$f" ] || continue
    # local_address is IP:PORT in hex; state 0A is LISTEN.
    awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print a[2] }' "$f"
  done | while read -r hex; do printf '%d ' "0x$hex"; done
}
