# A clean-prefix install is usable on its own: every file lands in its
# standard place, the installed tools run without LD_LIBRARY_PATH, each
# shell's loader (bash-completion, zsh compinit, fish) finds the installed
# completions, an out-of-tree program finds the package (find_package and
# pkg-config), links the runtime and all-reduces across 4 local ranks
# started by the installed distlaunch, and `uninstall` removes every
# installed file.
. "$(dirname "$0")/install_lib.sh"
P="$WORK/prefix"
install_to "$P"

# ---- the standard places --------------------------------------------------
for f in bin/distconfig bin/distlaunch bin/distbench \
         include/distkit/distkit.h include/distkit/runtime/group.hpp \
         include/distkit/runtime/config.hpp include/distkit/runtime/types.hpp \
         include/distkit/runtime/half.hpp \
         lib/cmake/distkit/distkitConfig.cmake lib/cmake/distkit/distkitConfigVersion.cmake \
         lib/cmake/distkit/distkitTargets.cmake lib/pkgconfig/distkit.pc \
         share/man/man5/distkit-hostfile.5 \
         share/bash-completion/completions/distlaunch share/zsh/site-functions/_distlaunch \
         share/fish/vendor_completions.d/distlaunch.fish; do
  expect_file "$P/$f"
done
for page in "$SRC"/man/*.[1-9]; do
  name=$(basename "$page")
  expect_file "$P/share/man/man${name##*.}/$name"
done
[ -e "$P/lib/libdistkit.so" ] || [ -e "$P/lib/libdistkit.dylib" ] || fail "libdistkit not installed in lib/"
expect_eq "$(find "$P/include" -type f | grep -c -e rendezvous -e transport -e algorithms || true)" 0 \
  "internal runtime headers installed"
v=$(env -u LD_LIBRARY_PATH "$P/bin/distconfig" --version)
expect_eq "$v" "distconfig 0.1.0" "installed distconfig --version"
env -u LD_LIBRARY_PATH "$P/bin/distbench" --version >/dev/null || fail "installed distbench does not start"

# ---- each shell's own loader finds the installed completions -----------
if [ -r /usr/share/bash-completion/bash_completion ]; then
  c=$(PATH="$P/bin:$PATH" XDG_DATA_DIRS="$P/share:/usr/share" bash --norc --noprofile -c \
    '. /usr/share/bash-completion/bash_completion; _completion_loader distlaunch; complete -p distlaunch' 2>&1)
  expect_eq "$c" "complete -o filenames -F _distkit_distlaunch distlaunch" "bash-completion loader"
fi
if command -v zsh >/dev/null 2>&1; then
  c=$(HOME="$WORK" zsh -f -c "fpath=($P/share/zsh/site-functions \$fpath); autoload -Uz compinit;
      compinit -u -d $WORK/zcompdump; print -r -- \$_comps[distlaunch]" 2>&1)
  expect_eq "$c" "_distlaunch" "zsh compinit"
fi
if command -v fish >/dev/null 2>&1; then
  c=$(PATH="$P/bin:$PATH" XDG_CONFIG_HOME="$WORK/xdg" XDG_DATA_HOME="$WORK/xdg" XDG_DATA_DIRS="$P/share:/usr/share" \
    fish -c 'complete -C "distlaunch --hostf"' 2>&1 | cut -f1)
  expect_eq "$c" "--hostfile" "fish vendor completions"
fi

# ---- an out-of-tree program, two ways ----------------------------------
{ cmake -S "$SRC/tests/install/consumer" -B "$WORK/cbuild" -DCMAKE_PREFIX_PATH="$P" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$WORK/consumer.log" 2>&1 &&
    cmake --build "$WORK/cbuild" >>"$WORK/consumer.log" 2>&1; } ||
  { cat "$WORK/consumer.log" >&2; fail "find_package(distkit) consumer does not build"; }
grep -q "distkit_DIR:PATH=$P/lib/cmake/distkit" "$WORK/cbuild/CMakeCache.txt" ||
  fail "find_package(distkit) did not use the installed package"

export PKG_CONFIG_PATH="$P/lib/pkgconfig"
expect_eq "$(pkg-config --modversion distkit)" "0.1.0" "pkg-config --modversion"
# shellcheck disable=SC2046 # pkg-config's flags, one a word
${CXX:-c++} -std=c++17 -o "$WORK/app-pc" "$SRC/tests/install/consumer/app.cpp" \
  $(pkg-config --cflags --libs distkit) -Wl,-rpath,"$P/lib" 2>"$WORK/pc.log" ||
  { cat "$WORK/pc.log" >&2; fail "pkg-config consumer does not build"; }

# ---- 4 local ranks under the installed distlaunch -----------------------
printf '%s\n' '{"backend": "ring", "hosts": [{"ssh": "127.0.0.1", "ips": ["127.0.0.1"], "rdma": []}]}' \
  >"$WORK/hostfile.json"
port=$(free_port_block 16)
for app in "$WORK/cbuild/app" "$WORK/app-pc"; do
  rc=0
  env -u LD_LIBRARY_PATH "$P/bin/distlaunch" --hostfile "$WORK/hostfile.json" -n 4 -p "$port" \
    --timeout 60 --tag-output -- "$app" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [ "$rc" = 0 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "$app under distlaunch exited $rc"; }
  for r in 0 1 2 3; do expect_line "$WORK/out" "[$r 127.0.0.1] ok"; done
  port=$((port + 8))
done

# ---- the installed Python binding finds the installed library -----------
if command -v python3 >/dev/null 2>&1; then
  expect_file "$P/lib/python3/dist-packages/distkit/__init__.py"
  rc=0
  env -u LD_LIBRARY_PATH -u DISTKIT_LIBRARY PYTHONPATH="$P/lib/python3/dist-packages" \
    "$P/bin/distlaunch" --hostfile "$WORK/hostfile.json" -n 4 -p "$port" --timeout 60 -- \
    python3 -B "$SRC/tests/integration/runtime_python_rank.py" >"$WORK/out" 2>"$WORK/err" || rc=$?
  [ "$rc" = 0 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "installed Python binding: ranks exited $rc"; }
  for r in 0 1 2 3; do expect_line "$WORK/out" "[$r] python ok"; done
fi

# ---- uninstall removes what install wrote --------------------------------
outside=$(grep -v "^$P/" "$MANIFEST" || true)
[ -z "$outside" ] || fail "install_manifest.txt lists files outside the test prefix: $outside"
cmake -P "$BUILD/distkit_uninstall.cmake" >"$WORK/uninstall.log" 2>&1 ||
  { cat "$WORK/uninstall.log" >&2; fail "uninstall failed"; }
left=$(find "$P" \( -type f -o -type l \) | sed "s|^$P/||")
[ -z "$left" ] || fail "uninstall left files: $left"
echo PASS
