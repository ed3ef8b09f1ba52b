# One of 8 real MLX ranks (4 test hosts, 2 each) killed with SIGKILL in the
# middle of its all_sum loop: distlaunch ends the job with that rank's code
# (128 + 9) and the line naming it (the wording scripts/chaos.sh checks),
# and nothing of the job is left running on any host.
. "$(dirname "$0")/mlx_lib.sh"
cluster_up 4
mlx_program
mlx_hostfile 4 "$WORK/hosts.json"
: >"$WORK/out"
"$DL" --ssh-config "$C/ssh_config" --hostfile "$WORK/hosts.json" -n 2 --timeout 120 -- \
  "$MLX_PROG" --loop 100 >"$WORK/out" 2>"$WORK/err" &
pid=$!
i=0
while [ "$(grep -c 'looping$' "$WORK/out")" != 8 ]; do
  [ $i -lt 600 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "8 ranks not all in their all_sum loop after 60 s"; }
  sleep 0.1
  i=$((i + 1))
done
# Rank 5 is the second rank on h3: its pid in h3's own PID namespace.
victim=$(on_host 3 sh -c 'for p in $(pgrep -x mlx_collectives); do
  if tr "\0" "\n" < /proc/$p/environ | grep -qx MLX_RANK=5; then echo $p; fi; done')
[ -n "$victim" ] || fail "no MLX rank 5 on h3"
on_host 3 kill -KILL "$victim"
rc=0
wait $pid || rc=$?
expect_eq "$(wait_procs "mlx_collectives" 0 5)" 0 "MLX rank processes left"
expect_eq "$(wait_procs "$AGENT_PATTERN" 0 5)" 0 "host agents left"
# The killed rank's neighbours die within milliseconds of it (a lost
# connection: exit 1, or SIGPIPE: 141), and across hosts their ends can
# reach distlaunch first (measured: 5 runs in 25 at load 10); distlaunch
# then takes the SIGKILLed rank, which ends just after, as the cause
# (lib/launch/src/supervisor_policy.cpp, kCauseWindow), in a second line.
[ "$rc" = 137 ] || { grep -v '^\[ring\]' "$WORK/err" >&2; fail "exit status: expected 137, got $rc"; }
grep -qxE "distlaunch: error: rank 5 on h3 exited with status 137(; stopping the other 7 running rank\(s\)|, just after; taken as the cause)" "$WORK/err" ||
  { cat "$WORK/err" >&2; fail "no line naming rank 5 as the cause"; }
echo PASS
