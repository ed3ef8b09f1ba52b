# Shared by tests/integration/slurm_*.sh (sourced, POSIX sh): a real Slurm
# on the test cluster (scripts/testcluster.sh slurm-up: munged and
# slurmctld here, one slurmd per test host), on top of launch_lib.sh.
#   slurm_up N   the hosts and Slurm on them, SLURM_CONF exported; skips
#                (77) where Slurm is not installed
# `down` (run by cluster_lib.sh's cleanup) stops Slurm's daemons first.
# After accept_lib.sh (which sources launch_lib.sh itself), not again.
CLUSTER_PREFIX=${CLUSTER_PREFIX:-distkit-slurm-test}
[ -n "${DL:-}" ] || . "$(dirname "$0")/launch_lib.sh"

slurm_up() {
  cluster_up "$1"
  rc=0
  "$CLUSTER" slurm-up "$C" 2>"$WORK/slurm-up.log" || rc=$?
  if [ "$rc" = 77 ]; then echo "SKIP: $(cat "$WORK/slurm-up.log")"; exit 77; fi
  [ "$rc" = 0 ] || { cat "$WORK/slurm-up.log"; exit 1; }
  SLURM_CONF="$C/slurm/slurm.conf"
  export SLURM_CONF
}

# The pids slurm-up recorded for DAEMON (munged, slurmctld, slurmd).
slurm_pids() { awk -v d="$1" '$1 == d { print $2 }' "$C/slurm/pids"; }
