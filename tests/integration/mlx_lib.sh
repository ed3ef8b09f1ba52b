# Shared by the tests that run real MLX programs (tests/integration/mlx_*.sh;
# sourced, POSIX sh): MLX's own C++ library, built from the source archive
# named by DISTKIT_MLX_SOURCE (tests/mlx/build_mlx.sh, cached outside the
# clone per archive), and tests/mlx/mlx_collectives built against it, run
# by distlaunch on test hosts from a hostfile that distconfig writes, on
# MLX's ring backend. Without DISTKIT_MLX_SOURCE the test skips (77): a
# clone has no MLX source; CI passes ../shared/third_party/mlx/mlx-*.tar.gz.
if [ -z "${DISTKIT_MLX_SOURCE:-}" ]; then
  echo "SKIP: DISTKIT_MLX_SOURCE not set (path of an MLX source archive, e.g. ../shared/third_party/mlx/mlx-*.tar.gz)"
  exit 77
fi
CLUSTER_PREFIX=distkit-mlx-test
. "$(dirname "$0")/launch_lib.sh"
DISTCONFIG=$BUILD/apps/distconfig
[ -x "$DISTCONFIG" ] || { echo "SKIP: $DISTCONFIG not built"; exit 77; }

# mlx_program: builds MLX (first time only) and the program; sets MLX_PROG.
mlx_program() {
  # shellcheck disable=SC2034 # used by the scripts that source this file
  MLX_PROG=$(sh "$SRC/tests/mlx/build_mlx.sh" "$DISTKIT_MLX_SOURCE" "$BUILD/tests/mlx") ||
    fail "could not build MLX or tests/mlx/mlx_collectives.cpp (see above)"
}

# mlx_hostfile N FILE: `distconfig --over ethernet` for h1..hN into FILE
# (backend "", each host's address: the ring backend by default).
mlx_hostfile() {
  "$DISTCONFIG" --ssh-config "$C/ssh_config" --hosts "$(host_list "$1")" --over ethernet \
    --output-hostfile "$2" >"$WORK/distconfig.out" 2>&1 ||
    { cat "$WORK/distconfig.out" >&2; fail "distconfig --over ethernet on $1 hosts"; }
}
