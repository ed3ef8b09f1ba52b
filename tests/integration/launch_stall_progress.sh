# What is not a stall, with --stall-timeout 5 on the test cluster: ranks
# that compute for 20 s printing nothing but reading their input file
# (I/O is progress), and ranks reading a slow stdin that distlaunch is
# still feeding. Both jobs end 0 without a stall report.
. "$(dirname "$0")/launch_lib.sh"
cc -O1 -g -o "$WORK/stuck_rank" "$DATA/stuck_rank.c"
head -c 65536 /dev/zero > "$WORK/input"
cluster_up 2

rc=0
dl --hosts "$(host_list 2)" --no-stdin --stall-timeout 5 -- \
  "$WORK/stuck_rank" reading "$WORK/input" 20 2>"$WORK/reading" || rc=$?
expect_eq "$rc" 0 "reading: exit status"
[ ! -s "$WORK/reading" ] || { cat "$WORK/reading"; fail "reading: distlaunch said something"; }

rc=0
(i=0; while [ $i -lt 12 ]; do echo "line $i"; sleep 1; i=$((i + 1)); done) |
  dl --hosts "$(host_list 2)" --stall-timeout 5 -- sh -c 'cat > /dev/null' 2>"$WORK/stdin" || rc=$?
expect_eq "$rc" 0 "slow stdin: exit status"
[ ! -s "$WORK/stdin" ] || { cat "$WORK/stdin"; fail "slow stdin: distlaunch said something"; }
echo PASS
