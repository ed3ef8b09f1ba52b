# 8 ranks on 4 test hosts: all run and exit 0, each on its host; stdin
# reaches every rank (8 MB of it whole, to 16 ranks on one host); per-rank
# files are removed, also when ranks exit at once; output lines stay whole
# under heavy concurrent output.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
hosts=$(host_list 4)

dl --hosts "$hosts" -n 2 --tag-output -- \
  sh -c 'echo "rank $MLX_RANK on $(hostname) local $DISTKIT_LOCAL_RANK"; dirname "$MLX_HOSTFILE"' \
  > "$WORK/out"
r=0
while [ $r -lt 8 ]; do
  expect_line "$WORK/out" "[$r h$((r / 2 + 1))] rank $r on h$((r / 2 + 1)) local $((r % 2))"
  r=$((r + 1))
done
# The per-rank temp dirs were removed on every host.
# shellcheck disable=SC2013 # a temp dir a word (no spaces); the body keeps stdin
for dir in $(sed -n 's/^\[[0-9]* h[0-9]*\] \(\/.*\)$/\1/p' "$WORK/out"); do
  k=1
  while [ $k -le 4 ]; do
    "$CLUSTER" exec "$C" $k -- test -e "$dir" && fail "$dir left on h$k"
    k=$((k + 1))
  done
done
[ "$(grep -c '^\[[0-9] h[0-9]\] /' "$WORK/out")" = 8 ] || fail "expected 8 temp dirs"

# Ranks that exit at once (16 of them, 3 times): nothing on stderr, and no
# temp dir is left or recreated afterwards (a rank helper that missed its
# stop signal used to write into the removed dir and say it lost the launcher).
for run in 1 2 3; do
  dl --hosts "$hosts" -n 4 -- sh -c 'dirname "$DISTKIT_SECRET_FILE"' < /dev/null \
    > "$WORK/fast" 2> "$WORK/fast.err"
  [ ! -s "$WORK/fast.err" ] || { cat "$WORK/fast.err" >&2; fail "stderr from ranks that exit at once"; }
  expect_eq "$(wc -l < "$WORK/fast" | tr -d ' ')" 16 "temp dirs printed"
  sleep 0.5
  while read -r dir; do
    [ ! -e "$dir" ] || fail "$dir left behind by a rank that exited at once (run $run)"
  done < "$WORK/fast"
done

# stdin is broadcast to every rank.
printf 'first line\nsecond line\n' | dl --hosts "$hosts" -n 2 --tag-output -- sh -c 'cat; echo end' > "$WORK/stdin"
r=0
while [ $r -lt 8 ]; do
  expect_line "$WORK/stdin" "[$r h$((r / 2 + 1))] first line"
  expect_line "$WORK/stdin" "[$r h$((r / 2 + 1))] second line"
  expect_line "$WORK/stdin" "[$r h$((r / 2 + 1))] end"
  r=$((r + 1))
done

# Large stdin to many ranks of one host, whole: 16 channels on one SSH
# connection fill its socket, so libssh2 leaves packets half-sent; the
# connection used to stall mid-packet (a keepalive timeout, exit 255) and
# drop other ranks' stdin.
dd if=/dev/urandom of="$WORK/big" bs=1000000 count=8 2>/dev/null
want=$(cksum < "$WORK/big")
for _attempt in 1 2; do  # the stall depended on timing: 2 of 3 runs before the fix
  dl --hosts h1 -n 16 -- cksum < "$WORK/big" > "$WORK/sums"
  expect_eq "$(grep -cx "$want" "$WORK/sums")" 16 "ranks that read all of an 8 MB stdin"
done

# Heavy concurrent output: 8 ranks x 2000 lines of 500 bytes, all whole.
dl --hosts "$hosts" -n 2 --tag-output -- sh -c \
  'awk -v r=$MLX_RANK "BEGIN { s = \"\"; for (i = 0; i < 496; i++) s = s r; for (i = 0; i < 2000; i++) printf \"%s %03d\\n\", s, i % 1000 }"' \
  > "$WORK/heavy"
expect_eq "$(wc -l < "$WORK/heavy" | tr -d ' ')" 16000 "heavy output lines"
bad=$(awk '{ r = substr($0, 2, 1); want = "[" r " h" int(r / 2) + 1 "] "
             for (i = 0; i < 496; i++) want = want r
             if (length($0) != 507 || substr($0, 1, 503) != want) n++ } END { print n + 0 }' "$WORK/heavy")
expect_eq "$bad" 0 "torn lines"
echo PASS
