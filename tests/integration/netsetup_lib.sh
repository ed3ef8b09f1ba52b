# Shared helpers for the network-setup integration tests (sourced, POSIX sh).
# Each test brings up its own test cluster in a temporary directory (always
# torn down), joins hosts with veth pairs playing Thunderbolt cables
# (testcluster.sh cable) and declares them with --links. State files go to
# the test's directory (--state-file), never to the machine's /var/lib.
# The cluster plumbing (cluster_up N, WORK, teardown) is cluster_lib.sh's;
# CL and TC name its cluster dir and script here.
: "${DISTKIT_BUILD_DIR:=${DISTKIT_SOURCE_DIR:-$(pwd)}/build}"
CLUSTER_PREFIX=netsetup-it
. "$(dirname "$0")/cluster_lib.sh"
DISTCONFIG=$BUILD/apps/distconfig
CL=$C
TC=$CLUSTER

[ -x "$DISTCONFIG" ] || { echo "SKIP: $DISTCONFIG not built"; exit 77; }

fail() { echo "FAIL: $*" >&2; [ ! -f "$WORK/err" ] || cat "$WORK/err" >&2; exit 1; }

# ring3_up: 3 hosts cabled as a ring (h1:tb2-h2:tb1, h2:tb3-h3:tb2,
# h3:tb1-h1:tb3) and the links file $WORK/links. Exits 77 when the machine
# cannot host a test cluster.
ring3_up() {
  cluster_up 3
  bash "$TC" cable "$CL" 1 2
  bash "$TC" cable "$CL" 2 3
  bash "$TC" cable "$CL" 3 1
  printf '# a ring of 3\nh1:tb2 h2:tb1\nh2:tb3 h3:tb2\nh3:tb1 h1:tb3\n' >"$WORK/links"
}

on() { on_host "$@"; }

# run_distconfig ARGS...: against the cluster, with the test's state files;
# sets RC, leaves stdout/stderr in $WORK/out and $WORK/err.
run_distconfig() {
  set +e
  "$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts h1,h2,h3 --links "$WORK/links" \
    --state-file "$WORK/state-%h" "$@" >"$WORK/out" 2>"$WORK/err"
  # shellcheck disable=SC2034 # read by the scripts that source this file
  RC=$?
  set -e
}

# snapshot K: host K's addresses and routes as `ip -j` prints them, minus
# what the kernel alone changes when a link first comes up (the default
# qdisc replacing noop, IPv6 duplicate-address detection finishing).
snapshot() {
  on "$1" sh -c 'ip -j addr; ip -j route' |
    sed -e 's/"qdisc":"[a-z_]*",//g' -e 's/"tentative":true,//g'
}

snapshot_all() { for k in 1 2 3; do snapshot "$k" >"$WORK/$1.h$k"; done; }

same_snapshots() {
  for k in 1 2 3; do
    cmp -s "$WORK/$1.h$k" "$WORK/$2.h$k" || { diff "$WORK/$1.h$k" "$WORK/$2.h$k" >&2; fail "h$k: $1 and $2 differ"; }
  done
}

expect_err() { grep -qF -- "$1" "$WORK/err" || fail "stderr lacks: $1"; }
