# The environment each backend gives, end to end on real hosts: for every
# reference launch in the shared scenarios (tests/data/launch), run the
# reference hostfile on 4 test hosts aliased to its host names and compare
# each rank's MLX_* variables (data files by content) with the reference
# per-rank script.
. "$(dirname "$0")/launch_lib.sh"
cluster_up 4
cfg="$WORK/ssh_config"
{
  k=1
  for n in a b c d; do
    printf 'Host studio-%s\n  HostName %s\n' $n "$("$CLUSTER" addr "$C" $k)"
    k=$((k + 1))
  done
  sed 's/^Host h\* \(.*\)$/Host h* \1 studio-*/' "$C/ssh_config"
} > "$cfg"

# What a rank sees: MLX_* variables, a file's content instead of its path.
show='for v in $(env | grep "^MLX_" | cut -d= -f1 | sort); do eval "x=\$$v"; if [ -f "$x" ]; then echo "$v=@$(cat "$x")"; else echo "$v=$x"; fi; done; echo "host=$DISTKIT_HOST"'

# check SCENARIO LAUNCH: argv from expected_LAUNCH.argv.txt, ranks from its
# per-rank scripts.
check() {
  dir="$DATA/$1"
  argv=$(cat "$dir/expected_$2.argv.txt")
  hf=$(echo "$argv" | sed -n 's/.*--hostfile <\([^>]*\)>.*/\1/p')
  extra=$(echo "$argv" | sed -n 's/.*\(--connections-per-ip [0-9]*\).*/\1/p')
  # shellcheck disable=SC2086 # $extra: nothing, or an option and its value
  "$DL" --ssh-config "$cfg" --hostfile "$dir/$hf" --cwd "$WORK" $extra --tag-output --timeout 30 \
    -- sh -c "$show" > "$WORK/got" || fail "$1 $2: distlaunch failed"
  for ref in "$dir"/expected_"$2".rank*.remote_script.txt; do
    r=$(basename "$ref" | sed 's/.*\.rank\([0-9]*\)\..*/\1/')
    host=$(basename "$ref" | sed 's/.*\.rank[0-9]*\.\(.*\)\.remote_script\.txt/\1/')
    {
      grep -o "echo '[^']*' >\$fname; export [A-Z_]*=\$fname" "$ref" |
        sed "s/^echo '\(.*\)' >\$fname; export \([A-Z_]*\)=\$fname\$/\2=@\1/"
      grep -o 'export [A-Z_]*=[^;$]*;' "$ref" | sed 's/^export \(.*\);$/\1/'
    } | sort > "$WORK/want"
    echo "host=$host" >> "$WORK/want"
    sed -n "s/^\[$r [^]]*\] //p" "$WORK/got" > "$WORK/rank"
    cmp -s "$WORK/want" "$WORK/rank" || {
      echo "--- want"; cat "$WORK/want"; echo "--- got"; cat "$WORK/rank"
      fail "$1 $2 rank $r: environment differs from the reference"
    }
  done
  echo "ok: $1 $2"
}
check ring4_m3ultra_rdma launch_ring
check ring4_m3ultra_rdma launch_jaccl_ring
check mesh4_m3ultra_rdma launch_jaccl
check pair2_m3ultra_double_cable launch_ring_2conn
echo PASS
