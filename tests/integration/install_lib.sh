# Shared by tests/integration/install_*.sh (sourced, POSIX sh): the build
# directory, a work directory that is always removed, assertions, and a
# clean-prefix `cmake --install` that leaves the build's own
# install_manifest.txt as it found it.
set -eu
# shellcheck disable=SC2034 # used by the scripts that source this file
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${DISTKIT_BUILD_DIR:?DISTKIT_BUILD_DIR must point at the build directory}
for t in apps/distconfig apps/distlaunch apps/distbench; do
  [ -x "$BUILD/$t" ] || { echo "SKIP: $BUILD/$t not built (build all targets first)"; exit 77; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-install-test.XXXXXX")
MANIFEST="$BUILD/install_manifest.txt"
cleanup() {
  if [ -f "$WORK/manifest.saved" ]; then mv "$WORK/manifest.saved" "$MANIFEST"; else rm -f "$MANIFEST"; fi
  rm -rf "$WORK"
}
[ -f "$MANIFEST" ] && cp "$MANIFEST" "$WORK/manifest.saved"
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
expect_file() { [ -f "$1" ] || fail "missing after install: ${1#"$WORK"/}"; }
expect_line() { grep -qxF -- "$2" "$1" || { cat "$1" >&2; fail "no line '$2' in $1"; }; }

# install_to PREFIX: a fresh install of the build tree.
install_to() {
  cmake --install "$BUILD" --prefix "$1" >"$WORK/install.log" 2>&1 ||
    { cat "$WORK/install.log" >&2; fail "cmake --install failed"; }
}

# free_port_block N: the first of N free local ports (ports_lib.sh).
. "$(dirname "$0")/ports_lib.sh"
