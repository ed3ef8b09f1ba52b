#!/bin/sh
# The quick start's main job on this machine alone: distconfig probes
# 127.0.0.1 over Ethernet and writes a hostfile, then distlaunch runs 4 local
# ranks from it. Usage: scripts/local-demo.sh [BUILD_DIR]  (default: build)
set -eu
build=${1:-build}
bin="$build/apps"
for t in distconfig distlaunch; do
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
