# Shared helpers for the network-setup integration tests (sourced, POSIX sh).
# Each test brings up its own test cluster in a temporary directory (always
# torn down), joins hosts with veth pairs playing Thunderbolt cables
# (testcluster.sh cable) and declares them with --links. State files go to
# the test's directory (--state-file), never to the machine's /var/lib.
set -eu
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:-$SRC/build}
DISTCONFIG=$BUILD/apps/distconfig
TC=$SRC/scripts/testcluster.sh

[ -x "$DISTCONFIG" ] || { echo "skipped: $DISTCONFIG not built" >&2; exit 77; }

fail() { echo "FAIL: $*" >&2; [ ! -f "$WORK/err" ] || cat "$WORK/err" >&2; exit 1; }

# ring3_up: 3 hosts cabled as a ring (h1:tb2-h2:tb1, h2:tb3-h3:tb2,
# h3:tb1-h1:tb3) and the links file $WORK/links. Exits 77 when the machine
# cannot host a test cluster.
ring3_up() {
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/netsetup-it.XXXXXX")
  CL=$WORK/cluster
  trap 'bash "$TC" down "$CL" >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT INT TERM
  set +e
  bash "$TC" up 3 "$CL" >"$WORK/up.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" = 77 ]; then cat "$WORK/up.log" >&2; exit 77; fi
  [ "$rc" = 0 ] || { cat "$WORK/up.log" >&2; fail "testcluster up failed"; }
  bash "$TC" cable "$CL" 1 2
  bash "$TC" cable "$CL" 2 3
  bash "$TC" cable "$CL" 3 1
  printf '# a ring of 3\nh1:tb2 h2:tb1\nh2:tb3 h3:tb2\nh3:tb1 h1:tb3\n' >"$WORK/links"
}

on() { k=$1; shift; bash "$TC" exec "$CL" "$k" -- "$@"; }

# run_distconfig ARGS...: against the cluster, with the test's state files;
# sets RC, leaves stdout/stderr in $WORK/out and $WORK/err.
run_distconfig() {
  set +e
  "$DISTCONFIG" --ssh-config "$CL/ssh_config" --hosts h1,h2,h3 --links "$WORK/links" \
    --state-file "$WORK/state-%h" "$@" >"$WORK/out" 2>"$WORK/err"
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
