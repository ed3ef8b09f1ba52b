# The Debian package: `cpack -G DEB` builds it from the build tree, its
# Depends (from dpkg-shlibdeps) name packages that exist on this Debian
# system, apt would install it here (simulated, nothing changes), and
# unpacked into a throwaway root with `dpkg -x` its distconfig runs and
# every file sits under /usr.
. "$(dirname "$0")/install_lib.sh"
{ command -v dpkg-deb >/dev/null 2>&1 && command -v cpack >/dev/null 2>&1; } ||
  { echo "SKIP: dpkg-deb or cpack not available (not a Debian system)"; exit 77; }
command -v dpkg-shlibdeps >/dev/null 2>&1 ||
  { echo "SKIP: dpkg-shlibdeps not available (apt-get install dpkg-dev)"; exit 77; }

cpack -G DEB -B "$WORK/pkg" --config "$BUILD/CPackConfig.cmake" >"$WORK/cpack.log" 2>&1 ||
  { cat "$WORK/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$(ls "$WORK"/pkg/distkit_*.deb)
expect_eq "$(dpkg-deb -f "$deb" Package)" distkit "Package field"
expect_eq "$(dpkg-deb -f "$deb" Version)" 0.1.0 "Version field"

# Every dependency is a real package here (so the .deb installs on this CI
# system), the libraries the tools link are among them, and procps (ps for
# the host agent on minimal roots).
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libssh2-1 libstdc++6 libc6 procps; do
  echo "$depends" | grep -q "\\b$lib\\b" || fail "Depends lacks $lib: $depends"
done
echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' | while read -r dep; do
  dpkg-query -W "$dep" >/dev/null 2>&1 || fail "Depends names $dep, which is not installed here"
done

# apt resolves it against this system without installing (-s: simulate).
if command -v apt-get >/dev/null 2>&1; then
  apt-get install -s "$deb" >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; fail "apt-get cannot install $deb"; }
  grep -q '^Inst distkit ' "$WORK/apt.log" || { cat "$WORK/apt.log" >&2; fail "apt-get would not install distkit"; }
fi

ROOT="$WORK/root"
dpkg-deb -x "$deb" "$ROOT"
outside=$(find "$ROOT" -mindepth 1 -maxdepth 1 ! -name usr)
[ -z "$outside" ] || fail "package installs outside /usr: $outside"
for f in usr/bin/distconfig usr/bin/distlaunch usr/bin/distkit-agent usr/bin/distbench usr/include/distkit/distkit.h \
         usr/lib/cmake/distkit/distkitConfig.cmake usr/lib/pkgconfig/distkit.pc \
         usr/share/man/man5/distkit-hostfile.5 usr/share/bash-completion/completions/distconfig; do
  expect_file "$ROOT/$f"
done
v=$(LD_LIBRARY_PATH="$ROOT/usr/lib" "$ROOT/usr/bin/distconfig" --version)
expect_eq "$v" "distconfig 0.1.0" "distconfig --version from the unpacked package"
LD_LIBRARY_PATH="$ROOT/usr/lib" "$ROOT/usr/bin/distbench" --version >/dev/null ||
  fail "distbench from the unpacked package does not start"
echo PASS
