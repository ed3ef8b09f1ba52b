# An MLX hostfile that lists a host again puts one more rank on it, as
# mlx.launch does: [h1, h2, h1] runs ranks 0 and 2 on h1 (local ranks 0 and
# 1), rank 1 on h2, each (host, ip) with its own ring port, and a real
# all-reduce across the three ranks gives the closed-form answer. The same
# host with two different "ips" lists is still refused (exit 2, one line).
. "$(dirname "$0")/launch_lib.sh"
cluster_up 2
a1=$("$CLUSTER" addr "$C" 1)
a2=$("$CLUSTER" addr "$C" 2)
port=$((40000 + $$ % 20000))
cat > "$WORK/hf.json" <<JSON
{"backend": "ring", "hosts": [
  {"ssh": "h1", "ips": ["$a1"]}, {"ssh": "h2", "ips": ["$a2"]}, {"ssh": "h1", "ips": ["$a1"]}]}
JSON
dl --hostfile "$WORK/hf.json" -p "$port" --tag-output -- \
  sh -c 'echo "rank $MLX_RANK on $(hostname) local $DISTKIT_LOCAL_RANK of $DISTKIT_LOCAL_SIZE"; cat "$MLX_HOSTFILE"; echo' \
  > "$WORK/out" 2> "$WORK/err" || { cat "$WORK/err" >&2; fail "distlaunch refused or failed a repeated host"; }
expect_line "$WORK/out" "[0 h1] rank 0 on h1 local 0 of 2"
expect_line "$WORK/out" "[1 h2] rank 1 on h2 local 0 of 1"
expect_line "$WORK/out" "[2 h1] rank 2 on h1 local 1 of 2"
expect_line "$WORK/out" "[0 h1] [[\"$a1:$port\"], [\"$a2:$((port + 1))\"], [\"$a1:$((port + 2))\"]]"

# The ring really runs over it: every collective checked, 3 ranks on 2 hosts.
dl --hostfile "$WORK/hf.json" -p "$port" --timeout 120 -- \
  "$BUILD/apps/distbench" -t all -b 8 -e 64K -f 16 -n 2 -w 1 > "$WORK/bench" 2> "$WORK/err" ||
  { cat "$WORK/bench" "$WORK/err" >&2; fail "distbench across a repeated host failed"; }
[ "$(grep -c '^# Out of bounds values : 0 OK$' "$WORK/bench")" = 6 ] ||
  { cat "$WORK/bench" >&2; fail "not 6 clean collectives"; }

# One host with two address lists is a conflict, not a second rank.
cat > "$WORK/bad.json" <<JSON
[{"ssh": "h1", "ips": ["$a1"]}, {"ssh": "h1", "ips": ["$a2"]}]
JSON
rc=0
dl --hostfile "$WORK/bad.json" -- true > "$WORK/out" 2> "$WORK/err" || rc=$?
expect_eq "$rc" 2 "exit status for one host with two ips lists"
expect_eq "$(cat "$WORK/err")" "distlaunch: error: $WORK/bad.json: hosts[1].ips: [\"$a2\"] differs from [\"$a1\"] of hosts[0], the same host \"h1\"; give every entry of a host the same \"ips\" (each entry is one more rank there)" "error line"
echo PASS
