# A real Slurm on 4 test hosts (testcluster.sh slurm-up): every node idle,
# one step per node answers with that host's own name, an allocation gives
# the layout distlaunch reads; slurm-down stops exactly the daemons it
# started (by pid) and `down` stops them too.
. "$(dirname "$0")/slurm_lib.sh"
slurm_up 4

sinfo -h -N -o '%N %T' | sort > "$WORK/nodes"
printf 'h1 idle\nh2 idle\nh3 idle\nh4 idle\n' > "$WORK/want"
cmp -s "$WORK/nodes" "$WORK/want" || { cat "$WORK/nodes"; fail "not every node idle"; }

# srun runs on the node's own host: its UTS namespace names it.
srun -N 4 --quiet hostname | sort > "$WORK/names"
printf 'h1\nh2\nh3\nh4\n' > "$WORK/want"
cmp -s "$WORK/names" "$WORK/want" || { cat "$WORK/names"; fail "srun -N 4 hostname"; }

# The allocation's layout, as distlaunch reads it.
salloc -N 4 --ntasks-per-node=2 --quiet sh -c \
  'echo "$SLURM_JOB_NODELIST $SLURM_TASKS_PER_NODE $SLURM_NTASKS_PER_NODE"' > "$WORK/layout"
expect_eq "$(cat "$WORK/layout")" "h[1-4] 2(x4) 2" "salloc layout"

# One slurmd per host, each inside its host's PID namespace.
k=0
for p in $(slurm_pids slurmd); do
  k=$((k + 1))
  expect_eq "$(cat "/proc/$p/comm")" slurmd "slurmd pid $p"
  expect_eq "$(awk '/^NSpid:/ { print NF - 1 }' "/proc/$p/status")" 2 "slurmd $p in its host's PID namespace"
done
expect_eq "$k" 4 "slurmd count"

pids="$(slurm_pids munged) $(slurm_pids slurmctld) $(slurm_pids slurmd)"
"$CLUSTER" slurm-down "$C"
# Gone, or a zombie nobody reaps (they were started in the background).
stopped() {
  for p in $pids; do
    case "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null || echo gone)" in
      gone | Z) ;;
      *) fail "pid $p ($(cat "/proc/$p/comm")) still runs after $1" ;;
    esac
  done
}
stopped slurm-down
[ ! -f "$C/slurm/pids" ] || fail "slurm-down left its pid list"

# Up again, then `down` alone stops Slurm as well.
"$CLUSTER" slurm-up "$C" 2>/dev/null || fail "slurm-up after slurm-down"
pids="$(slurm_pids munged) $(slurm_pids slurmctld) $(slurm_pids slurmd)"
"$CLUSTER" down "$C"
STARTED=0
stopped down
echo PASS
