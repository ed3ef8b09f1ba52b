#!/bin/sh
# Prints an MLX ring hostfile ([["ip:port"], ...], one rank per address)
# for the first N addresses read from stdin (one per line, as in a test
# cluster's addrs file), rank i listening on BASE_PORT + i.
# Usage: ring_hostfile.sh N BASE_PORT < CLUSTER/addrs
# Shared by the runtime integration tests and bench/allreduce_vs_peers.sh.
n=${1:?usage: ring_hostfile.sh N BASE_PORT < addrs}
port=${2:?usage: ring_hostfile.sh N BASE_PORT < addrs}
i=0
sep=
printf '['
while [ "$i" -lt "$n" ] && read -r addr; do
  printf '%s["%s:%d"]' "$sep" "$addr" $((port + i))
  sep=", "
  i=$((i + 1))
done
printf ']\n'
[ "$i" -eq "$n" ] || { echo "ring_hostfile.sh: only $i of $n addresses on stdin" >&2; exit 1; }
