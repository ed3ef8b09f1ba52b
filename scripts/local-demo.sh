#!/bin/sh
# The quick start's main job on this machine alone:
#   1. distconfig probes 127.0.0.1 over Ethernet and writes a hostfile;
#   2. distlaunch runs 4 local ranks from it (tagged output);
#   3. distbench measures the collectives across those 4 ranks.
# Usage: scripts/local-demo.sh [BUILD_DIR]  (default: build)
set -eu
build=${1:-build}
bin="$build/apps"
for t in distconfig distlaunch distbench; do
  if [ ! -x "$bin/$t" ]; then
    echo "local-demo.sh: error: $bin/$t not found; build first (cmake --workflow --preset default)" >&2
    exit 2
  fi
done
hostfile="$build/local-hostfile.json"
"$bin/distconfig" --hosts 127.0.0.1 --over ethernet --output-hostfile "$hostfile"
echo "local-demo.sh: wrote $hostfile"
"$bin/distlaunch" --hostfile "$hostfile" -n 4 --tag-output -- \
  sh -c 'echo "hello from rank $MLX_RANK of $DISTKIT_WORLD_SIZE on $(hostname)"'
echo "local-demo.sh: all-reduce and all-gather across the 4 ranks (distbench)"
"$bin/distlaunch" --hostfile "$hostfile" -n 4 -- \
  "$bin/distbench" -t all_reduce,all_gather -b 8 -e 16M -f 8 -n 10 -w 3
