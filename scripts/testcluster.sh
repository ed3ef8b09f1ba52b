#!/bin/bash
# A cluster of N test "hosts" on one Linux machine, for integration tests,
# CI and benchmarks: each host is a network namespace on a private bridge
# (10.77.<id>.0/24) with its own sshd (ed25519 host key), hostname (UTS ns),
# process view (PID ns with a reaping init) and mount ns in which
# DIR/hK/shims is bind-mounted over /usr/local/sbin (first on sshd's PATH),
# so Mac-only tools answer from captured output (scripts/testcluster/shim.sh),
# and DIR/hK/home over root's home directory (a clean home per host).
# Nothing touches ~/.ssh: keys, known_hosts and ssh_config live in DIR.
#
# Usage:
#   testcluster.sh up N DIR            bring up h1..hN (N <= 200); writes
#       DIR/ssh_config DIR/known_hosts DIR/id_ed25519 DIR/hosts DIR/addrs
#   testcluster.sh down DIR            kill what up started, remove netns/bridge
#   testcluster.sh exec DIR K -- CMD.. run CMD inside host K's namespaces
#   testcluster.sh addr DIR K          print host K's address
#   testcluster.sh outputs DIR K PREFIX  copy captured files PREFIX.<tool>_<args>.<ext>
#       into host K's shim outputs (e.g. fixtures/.../studio-a)
#   testcluster.sh stop-sshd|start-sshd|cut|uncut|nosudo|sudo DIR K
#   testcluster.sh delay DIR K MS      slow host K's shimmed commands by MS ms
#   testcluster.sh cable DIR K L [IFK IFL]  a veth pair between hosts K and L
#       playing a point-to-point cable, named IFK in host K and IFL in
#       host L (default tbL in K, tbK in L), both left down and unaddressed
#   testcluster.sh slurm-up DIR        a real Slurm on the hosts: munged and slurmctld
#       here, one slurmd per host in its namespaces (scripts/testcluster/slurm.sh);
#       writes DIR/slurm/slurm.conf and DIR/slurm/env (SLURM_CONF=...)
#   testcluster.sh slurm-down DIR      stop what slurm-up started (down does it too)
# Exit status: 0 ok, 1 failure, 2 usage, 77 unsupported here (not root, no
# namespaces, no sshd, no Slurm for slurm-up) so test scripts can skip.
set -eEu

SELF_DIR=$(cd "$(dirname "$0")" && pwd)
LOCK_ROOT=/run/distkit-testcluster
SHIM_TOOLS="system_profiler networksetup ibv_devices ibv_devinfo rdma_ctl sw_vers ipconfig ifconfig sudo"
SSHD=/usr/sbin/sshd
# Each host gets its own empty home for root (bind-mounted over the real
# one in its mount namespace): no dotfiles slowing every login, no state
# shared between hosts.
ROOT_HOME=$(getent passwd root | cut -d: -f6)

die() { echo "testcluster.sh: error: $*" >&2; exit 1; }
help_text() { sed -n '2,/^[^#]/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
usage() { help_text >&2; exit 2; }
unsupported() { echo "testcluster.sh: skipped: $*" >&2; exit 77; }

check_support() {
  [ "$(uname -s)" = Linux ] || unsupported "needs Linux network namespaces (this is $(uname -s))"
  [ "$(id -u)" = 0 ] || unsupported "needs root to create network namespaces"
  [ -x "$SSHD" ] || unsupported "no $SSHD; run scripts/install-deps.sh (openssh-server)"
  for t in ip unshare nsenter ssh-keygen; do
    command -v "$t" >/dev/null 2>&1 || unsupported "no '$t' command"
  done
  ip netns add dkprobe$$ 2>/dev/null || unsupported "cannot create a network namespace here"
  ip netns del dkprobe$$
}

# ---- cluster ids: one /24 and one bridge per live cluster -------------------
alloc_id() {
  local dir=$1 id
  mkdir -p "$LOCK_ROOT"
  for id in $(seq 1 250); do
    # Reclaim an id whose cluster directory is gone and left no namespace.
    if [ -f "$LOCK_ROOT/$id/owner" ] && [ ! -d "$(cat "$LOCK_ROOT/$id/owner")" ] &&
      ! ip netns list | grep -q "^dk${id}h"; then
      ip link del "dkbr$id" 2>/dev/null || true
      rm -rf "${LOCK_ROOT:?}/$id"
    fi
    if mkdir "$LOCK_ROOT/$id" 2>/dev/null; then
      echo "$dir" > "$LOCK_ROOT/$id/owner"
      # The cluster's state exists as soon as its id does, so a bring-up
      # interrupted right after this still frees the id on `down`.
      printf 'ID=%s\n' "$id" > "$dir/cluster.env"
      echo "$id"
      return 0
    fi
  done
  die "no free cluster id under $LOCK_ROOT; run 'testcluster.sh down' on old clusters"
}

load_state() {
  DIR=$(cd "$1" 2>/dev/null && pwd) || die "$1: no such cluster directory"
  [ -f "$DIR/cluster.env" ] || die "$DIR: not a test cluster (no cluster.env)"
  # shellcheck disable=SC1091 # written by `up`, at run time
  . "$DIR/cluster.env"
}

host_ip() { echo "10.77.$ID.$(($1 + 1))"; }
ns_name() { echo "dk${ID}h$1"; }

# The init of host K (PID 1 of its PID namespace) as seen from here.
init_pid() {
  local u
  u=$(cat "$DIR/h$1/unshare.pid" 2>/dev/null) || return 1
  awk '{print $1}' "/proc/$u/task/$u/children" 2>/dev/null || true
}

# ---- bring-up ---------------------------------------------------------------
write_sshd_config() {
  local k=$1 hd="$DIR/h$1"
  cat > "$hd/sshd_config" <<CFG
ListenAddress $(host_ip "$k")
Port 22
HostKey $hd/ssh_host_ed25519_key
PidFile $hd/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
MaxStartups 200:30:400
MaxSessions 64
KexAlgorithms curve25519-sha256,curve25519-sha256@libssh.org,sntrup761x25519-sha512@openssh.com
PrintMotd no
LogLevel ERROR
CFG
}

write_shims() {
  local hd="$DIR/h$1" t
  mkdir -p "$hd/shims" "$hd/outputs" "$hd/home"
  # The shim is sourced, not started: one shell per answer, not two.
  for t in $SHIM_TOOLS; do
    printf '#!/bin/sh\nset -- "%s" %s "$@"\n. "%s"\n' "$hd" "$t" "$DIR/shim.sh" > "$hd/shims/$t"
    chmod 755 "$hd/shims/$t"
  done
}

# Runs inside host K's fresh namespaces as PID 1: set up, start sshd, then
# reap orphans forever (bash reaps any child in its SIGCHLD handling).
host_init_script() {
  local k=$1 hd="$DIR/h$1"
  cat > "$hd/init.sh" <<INIT
#!/bin/bash
hostname h$k
mount --make-rprivate / 2>/dev/null
mount -t proc proc /proc
mount --bind $hd/shims /usr/local/sbin
mount --bind $hd/home "$ROOT_HOME"
$SSHD -f $hd/sshd_config -E $hd/sshd.log
trap 'exit 0' TERM
while :; do sleep 3600 & wait \$!; done
INIT
  chmod 755 "$hd/init.sh"
}

up_host() {
  local k=$1 ns veth hd="$DIR/h$1"
  ns=$(ns_name "$k")
  veth="dk${ID}v$k"
  mkdir -p "$hd"
  rm -f "$hd/ssh_host_ed25519_key" "$hd/ssh_host_ed25519_key.pub" "$hd/nosudo" "$hd/delay_ms"
  ssh-keygen -q -t ed25519 -N '' -C "h$k" -f "$hd/ssh_host_ed25519_key"
  write_sshd_config "$k"
  write_shims "$k"
  host_init_script "$k"
  ip link del "$veth" 2>/dev/null || true  # stale, from an earlier cluster with this id
  ip netns add "$ns"
  ip link add "$veth" type veth peer name "dk${ID}p$k"
  ip link set "dk${ID}p$k" netns "$ns"
  ip -n "$ns" link set "dk${ID}p$k" name eth0
  ip -n "$ns" addr add "$(host_ip "$k")/24" dev eth0
  ip -n "$ns" link set lo up
  ip -n "$ns" link set eth0 up
  ip link set "$veth" master "dkbr$ID"
  ip link set "$veth" up
  setsid nsenter --net="/run/netns/$ns" unshare --pid --fork --kill-child --uts --mount \
    --propagation private "$hd/init.sh" </dev/null >"$hd/init.log" 2>&1 &
  echo $! > "$hd/unshare.pid"
}

wait_sshd() {
  local ip=$1 _i
  for _i in $(seq 1 200); do
    if (exec 3<>"/dev/tcp/$ip/22") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  return 1
}

write_client_files() {
  local k
  {
    echo "# generated by scripts/testcluster.sh for cluster $ID"
    for k in $(seq 1 "$N"); do
      printf 'Host h%s\n  HostName %s\n' "$k" "$(host_ip "$k")"
    done
    printf 'Host h* 10.77.%s.*\n' "$ID"
    printf '  User root\n  Port 22\n  IdentityFile %s/id_ed25519\n  IdentitiesOnly yes\n' "$DIR"
    printf '  UserKnownHostsFile %s/known_hosts\n  StrictHostKeyChecking yes\n' "$DIR"
    printf '  KexAlgorithms curve25519-sha256\n  BatchMode yes\n  LogLevel ERROR\n'
  } > "$DIR/ssh_config"
  for k in $(seq 1 "$N"); do
    echo "h$k,$(host_ip "$k") $(cut -d' ' -f1,2 "$DIR/h$k/ssh_host_ed25519_key.pub")"
  done > "$DIR/known_hosts"
  seq -f 'h%g' 1 "$N" > "$DIR/hosts"
  for k in $(seq 1 "$N"); do host_ip "$k"; done > "$DIR/addrs"
}

# A failed or interrupted bring-up: let the per-host jobs finish (they may
# still be creating namespaces), then remove everything this cluster made.
up_failed() {
  trap - ERR INT TERM
  echo "testcluster.sh: bring-up failed; tearing down" >&2
  wait 2>/dev/null || true
  cmd_down "$DIR"
  exit 1
}

cmd_up() {
  [ $# = 2 ] || usage
  N=$1
  case "$N" in ''|*[!0-9]*) usage ;; esac
  { [ "$N" -ge 1 ] && [ "$N" -le 200 ]; } || die "N must be 1..200"
  check_support
  mkdir -p "$2"
  DIR=$(cd "$2" && pwd)
  [ ! -f "$DIR/cluster.env" ] || die "$DIR already holds a cluster; run 'down' first"
  trap up_failed ERR INT TERM
  ID=$(alloc_id "$DIR")
  echo "N=$N" >> "$DIR/cluster.env"
  mkdir -p /run/sshd
  cp "$SELF_DIR/testcluster/shim.sh" "$DIR/shim.sh"
  rm -f "$DIR/id_ed25519" "$DIR/id_ed25519.pub"
  ssh-keygen -q -t ed25519 -N '' -C distkit-test -f "$DIR/id_ed25519" </dev/null
  cp "$DIR/id_ed25519.pub" "$DIR/authorized_keys"
  ip link add "dkbr$ID" type bridge
  ip addr add "10.77.$ID.1/24" dev "dkbr$ID"
  ip link set "dkbr$ID" up
  local k pids="" failed=0
  for k in $(seq 1 "$N"); do
    (trap - ERR INT TERM; up_host "$k") > "$DIR/up_h$k.log" 2>&1 &
    pids="$pids $!"
  done
  for p in $pids; do wait "$p" || failed=1; done
  [ "$failed" = 0 ] || { cat "$DIR"/up_h*.log >&2; false; }
  for k in $(seq 1 "$N"); do
    wait_sshd "$(host_ip "$k")" || { cat "$DIR/h$k/init.log" "$DIR/h$k/sshd.log" >&2 2>/dev/null; false; }
  done
  write_client_files
  trap - ERR INT TERM
  echo "testcluster.sh: $N hosts up in $DIR (10.77.$ID.0/24)" >&2
}

# ---- teardown: only what this cluster started, by recorded PID --------------
# True when PID has exited (a zombie counts: orphans may wait long for a
# reaper, e.g. in containers whose PID 1 does not reap).
gone() {
  [ ! -d "/proc/$1" ] || [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

kill_host() {
  local hd=$1 u init _i
  u=$(cat "$hd/unshare.pid" 2>/dev/null) || return 0
  # Only if that PID is still our unshare (PIDs get reused).
  if tr '\0' ' ' 2>/dev/null < "/proc/$u/cmdline" | grep -q "unshare.*$hd/init.sh"; then
    init=$(awk '{print $1}' "/proc/$u/task/$u/children" 2>/dev/null || true)
    kill -KILL "$u" 2>/dev/null || true  # --kill-child takes the PID namespace down
    if [ -n "$init" ]; then kill -KILL "$init" 2>/dev/null || true; fi
    for _i in $(seq 1 100); do
      if gone "$u" && { [ -z "$init" ] || gone "$init"; }; then break; fi
      sleep 0.02
    done
  fi
  rm -f "$hd/unshare.pid"
}

cmd_down() {
  [ $# = 1 ] || usage
  [ -f "$1/cluster.env" ] || { echo "testcluster.sh: $1: no cluster to tear down" >&2; return 0; }
  load_state "$1"
  local hd ns l
  cmd_slurm_down "$DIR"
  for hd in "$DIR"/h*/; do [ -d "$hd" ] && kill_host "${hd%/}"; done
  # Deleting one end of a veth pair removes both, wherever the peer is.
  for l in $(ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep "^dk${ID}[vp][0-9]*$" || true); do
    ip link del "$l" 2>/dev/null || true
  done
  for ns in $(ip netns list | awk '{print $1}' | grep "^dk${ID}h[0-9]*$" || true); do
    ip netns del "$ns" 2>/dev/null || true
  done
  ip link del "dkbr$ID" 2>/dev/null || true
  if [ "$(cat "$LOCK_ROOT/$ID/owner" 2>/dev/null)" = "$DIR" ]; then rm -rf "${LOCK_ROOT:?}/$ID"; fi
  rm -f "$DIR/cluster.env"
}

# ---- per-host operations ----------------------------------------------------
host_arg() {
  load_state "$1"
  K=$2
  case "$K" in ''|*[!0-9]*) usage ;; esac
  { [ "$K" -ge 1 ] && [ "$K" -le "$N" ]; } || die "host $K is not in 1..$N"
  HD="$DIR/h$K"
}

in_host() {
  local p
  p=$(init_pid "$K") || true
  [ -n "$p" ] || die "host h$K is not running"
  nsenter -t "$p" --net --uts --mount --pid --ipc -- "$@"
}

cmd_exec() {
  [ $# -ge 3 ] || usage
  host_arg "$1" "$2"
  shift 2
  [ "${1:-}" = -- ] && shift
  in_host "$@"
}

cmd_outputs() {
  [ $# = 3 ] || usage
  host_arg "$1" "$2"
  local prefix=$3 f
  for f in "$prefix".*; do
    [ -f "$f" ] || continue
    cp "$f" "$HD/outputs/${f#"$prefix".}"
  done
}

cmd_fault() {
  local what=$1
  shift
  [ $# -ge 2 ] || usage
  host_arg "$1" "$2"
  case "$what" in
    stop-sshd) in_host sh -c "kill \$(cat $HD/sshd.pid)" ;;
    start-sshd)
      in_host "$SSHD" -f "$HD/sshd_config" -E "$HD/sshd.log"
      wait_sshd "$(host_ip "$K")" || die "sshd on h$K did not start" ;;
    cut) ip link set "dk${ID}v$K" down ;;
    uncut) ip link set "dk${ID}v$K" up ;;
    nosudo) touch "$HD/nosudo" ;;
    sudo) rm -f "$HD/nosudo" ;;
    delay)
      [ $# = 3 ] || usage
      case "$3" in ''|*[!0-9]*) usage ;; esac
      echo "$3" > "$HD/delay_ms" ;;
  esac
}

# A veth pair between two hosts' network namespaces: created in the root
# namespace under per-cluster names (never clashing with another cluster),
# then moved and renamed. It disappears with the namespaces at `down`.
cmd_cable() {
  [ $# = 3 ] || [ $# = 5 ] || usage
  host_arg "$1" "$2"
  local k=$K l=$3 ifk=${4:-tb$3} ifl=${5:-tb$2} tmpk tmpl
  case "$l" in ''|*[!0-9]*) usage ;; esac
  { [ "$l" -ge 1 ] && [ "$l" -le "$N" ] && [ "$l" != "$k" ]; } || die "host $l is not another host in 1..$N"
  tmpk="dk${ID}c${k}x${l}a"
  tmpl="dk${ID}c${k}x${l}b"
  ip link add "$tmpk" type veth peer name "$tmpl"
  ip link set "$tmpk" netns "$(ns_name "$k")"
  ip link set "$tmpl" netns "$(ns_name "$l")"
  ip -n "$(ns_name "$k")" link set "$tmpk" name "$ifk"
  ip -n "$(ns_name "$l")" link set "$tmpl" name "$ifl"
}

# shellcheck source=scripts/testcluster/slurm.sh
. "$SELF_DIR/testcluster/slurm.sh"

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
  up) cmd_up "$@" ;;
  down) cmd_down "$@" ;;
  exec) cmd_exec "$@" ;;
  addr) [ $# = 2 ] || usage; host_arg "$1" "$2"; host_ip "$K" ;;
  outputs) cmd_outputs "$@" ;;
  cable) cmd_cable "$@" ;;
  slurm-up) check_support; cmd_slurm_up "$@" ;;
  slurm-down) cmd_slurm_down "$@" ;;
  stop-sshd|start-sshd|cut|uncut|nosudo|sudo|delay) cmd_fault "$cmd" "$@" ;;
  -h|--help) help_text; exit 0 ;;
  *) echo "testcluster.sh: error: unknown command '$cmd'; see --help" >&2; exit 2 ;;
esac
