# The Debian package installs with apt on a clean Debian root and works
# there: distconfig --version, and 2 local ranks of distbench under
# distlaunch. The root is one made once with
#   debootstrap --variant=minbase bookworm DIR
# and named by DISTKIT_CLEAN_ROOT; it is never modified: the test runs in
# an overlay on top of it, thrown away at the end. Needs root, overlayfs
# and network access to the Debian mirror (for libssh2-1, libfmt9, procps);
# skipped (77) without DISTKIT_CLEAN_ROOT.
. "$(dirname "$0")/install_lib.sh"
CLEAN=${DISTKIT_CLEAN_ROOT:-}
[ -n "$CLEAN" ] || { echo "SKIP: set DISTKIT_CLEAN_ROOT to a debootstrap root (see the header)"; exit 77; }
[ -x "$CLEAN/usr/bin/apt-get" ] || fail "DISTKIT_CLEAN_ROOT=$CLEAN is not a Debian root"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (chroot, mount)"; exit 77; }
command -v cpack >/dev/null 2>&1 || { echo "SKIP: cpack not available"; exit 77; }

cpack -G DEB -B "$WORK/pkg" --config "$BUILD/CPackConfig.cmake" >"$WORK/cpack.log" 2>&1 ||
  { cat "$WORK/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$(ls "$WORK"/pkg/distkit_*.deb)

R="$WORK/merged"
mkdir -p "$WORK/upper" "$WORK/ovl" "$R"
mount -t overlay overlay -o "lowerdir=$CLEAN,upperdir=$WORK/upper,workdir=$WORK/ovl" "$R" ||
  { echo "SKIP: cannot mount an overlay here"; exit 77; }
# Remove the work directory only once nothing is mounted inside it.
# Processes still inside the root (by their root directory), if any.
inside() {
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$R" ] && echo "${p#/proc/} $(tr '\0' ' ' <"$p/cmdline")"
  done
  return 0
}
unmount() {
  i=0
  while mountpoint -q "$R" && [ $i -lt 50 ]; do
    umount "$R/proc" 2>/dev/null || true
    umount "$R" 2>/dev/null || { sleep 0.1; i=$((i + 1)); }
  done
  if mountpoint -q "$R"; then
    echo "install_deb_clean_root: cannot unmount $R; left $WORK in place; still inside: $(inside)" >&2
  else
    cleanup
  fi
}
trap unmount EXIT
mount -t proc proc "$R/proc"
cp /etc/resolv.conf "$R/etc/resolv.conf"
cp "$deb" "$R/tmp/distkit.deb"

in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root sh -c "$1"; }
in_root 'command -v distconfig' >/dev/null 2>&1 && fail "the clean root already has distconfig"
in_root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/distkit.deb' \
  >"$WORK/apt.log" 2>&1 || { tail -20 "$WORK/apt.log" >&2; fail "apt-get install of the .deb failed in the clean root"; }
expect_eq "$(in_root 'distconfig --version')" "distconfig 0.1.0" "distconfig --version in the clean root"
in_root 'cd /tmp && distlaunch --hosts 127.0.0.1 -n 2 --timeout 60 -- distbench -b 8 -e 1K' \
  >"$WORK/run.out" 2>&1 || { cat "$WORK/run.out" >&2; fail "distbench under distlaunch failed in the clean root"; }
grep -q '^# Out of bounds values : 0 OK' "$WORK/run.out" || { cat "$WORK/run.out" >&2; fail "no distbench result"; }
sleep 1
left=$(inside)
[ -z "$left" ] || fail "processes left running in the root after distlaunch returned: $left"
echo PASS
