# The local quick start without any sshd: 4 ranks from a hostfile naming
# 127.0.0.1 greet, a failing rank's code comes back, nothing is left behind.
. "$(dirname "$0")/launch_lib.sh"
printf '%s\n' '{"backend": "", "envs": [], "hosts": [{"ssh": "127.0.0.1", "ips": ["127.0.0.1"], "rdma": []}]}' \
  > "$WORK/hostfile.json"
"$DL" --hostfile "$WORK/hostfile.json" -n 4 --tag-output -- \
  sh -c 'echo "hello from rank $MLX_RANK of $DISTKIT_WORLD_SIZE on $(hostname)"' > "$WORK/out"
h=$(hostname)
for r in 0 1 2 3; do expect_line "$WORK/out" "[$r] hello from rank $r of 4 on $h"; done
expect_eq "$(wc -l < "$WORK/out" | tr -d ' ')" 4 "output lines"

marker="sleep 9$$"
rc=0
"$DL" --hostfile "$WORK/hostfile.json" -n 4 -- \
  sh -c "[ \$MLX_RANK = 1 ] && exit 3; $marker" 2>"$WORK/err" || rc=$?
expect_eq "$rc" 3 "exit status"
expect_line "$WORK/err" "distlaunch: error: rank 1 on 127.0.0.1 exited with status 3; stopping the other 3 running rank(s)"
expect_eq "$(pgrep -c -f "$marker" || true)" 0 "processes left"
echo PASS
