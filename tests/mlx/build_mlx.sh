#!/bin/sh
# Builds MLX's C++ library (CPU backend, ring backend over TCP) from an MLX
# source archive, once per archive, into a cache outside the clone, then
# compiles tests/mlx/mlx_collectives.cpp against it. Used by the tests that
# run real MLX programs (tests/integration/mlx_*.sh) and by
# bench/allreduce_vs_mlx.sh. The flags are those of SPEC §11 (offline, Debian
# 12: MLX's json download replaced by Debian's nlohmann headers, the system
# fmt), plus a Release build.
#
# Usage: tests/mlx/build_mlx.sh ARCHIVE OUTDIR
#   ARCHIVE  an MLX source archive (git archive of ml-explore/mlx, .tar.gz)
#   OUTDIR   where mlx_collectives is written (rebuilt when its source or
#            the library changed)
# Prints the path of the built mlx_collectives on stdout.
#
# Cache: ${DISTKIT_MLX_CACHE:-${XDG_CACHE_HOME:-~/.cache}/distkit-test}/mlx-<first
# 16 hex digits of the archive's SHA-256>/ holding include/, lib/libmlx.a and
# BUILD_INFO. It is built in a temporary directory beside it and renamed into
# place when complete, so an interrupted build never leaves a partial cache;
# concurrent callers wait on a lock (flock) rather than build twice.
# Env: DISTKIT_MLX_JOBS (parallel jobs, default: every core), CXX.
# Needs: cmake, a C++20 compiler, scripts/install-deps.sh --mlx (OpenBLAS,
# LAPACKE) and the base dependencies (fmt, nlohmann-json).
# Exit status: 0 built (or already there), 1 a build failed (the end of its
# log is printed), 2 usage (no such archive).
set -eu

die() { echo "build_mlx.sh: error: $1" >&2; exit "${2:-1}"; }
[ $# = 2 ] || die "usage: build_mlx.sh ARCHIVE OUTDIR" 2
archive=$1
outdir=$2
[ -f "$archive" ] || die "$archive: no such MLX source archive" 2
here=$(cd "$(dirname "$0")" && pwd)
jobs=${DISTKIT_MLX_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}

sha=$(sha256sum "$archive" | cut -c1-16)
root=${DISTKIT_MLX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/distkit-test}
cache=$root/mlx-$sha
mkdir -p "$root" "$outdir"

# configure_mlx SRC BUILD PREFIX: SPEC §11's flags.
configure_mlx() {
  mkdir -p "$2/json/single_include"
  ln -s /usr/include/nlohmann "$2/json/single_include/nlohmann"
  cmake -S "$1" -B "$2/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX="$3" \
    -DMLX_BUILD_METAL=OFF -DMLX_BUILD_CUDA=OFF -DMLX_BUILD_CPU=ON \
    -DMLX_BUILD_TESTS=OFF -DMLX_BUILD_EXAMPLES=OFF -DMLX_BUILD_BENCHMARKS=OFF \
    -DMLX_BUILD_PYTHON_BINDINGS=OFF -DMLX_BUILD_GGUF=OFF -DUSE_SYSTEM_FMT=ON \
    -DMLX_USE_CCACHE=OFF -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
    -DFETCHCONTENT_SOURCE_DIR_JSON="$2/json"
}

# build_cache: the whole MLX build in a temporary directory, renamed into
# place at the end. The caller holds the lock.
build_cache() {
  tmp=$root/.mlx-$sha.tmp.$$
  log=$root/mlx-$sha.log
  rm -rf "$tmp"
  mkdir -p "$tmp/src"
  trap 'rm -rf "$tmp"' EXIT
  trap 'exit 130' INT TERM
  echo "build_mlx.sh: building MLX's C++ library from $archive (once per archive;" \
    "about 10-20 min at -j$jobs) into $cache; log: $log" >&2
  t0=$(date +%s)
  if ! {
    tar -xzf "$archive" -C "$tmp/src" &&
      src=$(find "$tmp/src" -mindepth 1 -maxdepth 1 -type d | head -n 1) &&
      [ -f "$src/mlx/distributed/ring/ring.cpp" ] &&
      configure_mlx "$src" "$tmp" "$tmp/prefix" &&
      cmake --build "$tmp/build" -j "$jobs" &&
      cmake --install "$tmp/build"
  } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "building MLX failed (whole log: $log)"
  fi
  printf 'archive %s\nsha256 %s\nbuilt %s in %s s, -j%s, %s\n' "$archive" \
    "$(sha256sum "$archive" | cut -d' ' -f1)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    "$(($(date +%s) - t0))" "$jobs" "$(${CXX:-c++} --version | head -n 1)" >"$tmp/prefix/BUILD_INFO"
  mv "$tmp/prefix" "$cache"
  rm -rf "$tmp"
  trap - EXIT
  echo "build_mlx.sh: MLX built in $(($(date +%s) - t0)) s" >&2
}

if [ ! -f "$cache/lib/libmlx.a" ]; then
  exec 9>"$root/mlx-$sha.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
  # Under the lock: left-overs of interrupted builds can go, and another
  # caller may have finished the cache meanwhile.
  rm -rf "$root/.mlx-$sha.tmp."*
  [ -f "$cache/lib/libmlx.a" ] || build_cache
  exec 9>&-
fi

# The program: rebuilt when its source or the cache it links changed.
prog=$outdir/mlx_collectives
key="$(cksum <"$here/mlx_collectives.cpp") $cache"
if [ ! -x "$prog" ] || [ "$(cat "$prog.key" 2>/dev/null)" != "$key" ]; then
  # LAPACK and BLAS as MLX's own configure finds them on Debian: OpenBLAS.
  ${CXX:-c++} -std=c++20 -O2 -DMLX_STATIC -I"$cache/include" \
    "$here/mlx_collectives.cpp" "$cache/lib/libmlx.a" -lopenblas -pthread -ldl \
    -o "$prog.tmp" || die "compiling $here/mlx_collectives.cpp against $cache failed"
  mv "$prog.tmp" "$prog"
  echo "$key" >"$prog.key"
fi
echo "$prog"
