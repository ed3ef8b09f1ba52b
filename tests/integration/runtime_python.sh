# The Python binding (lib/runtime/python/distkit, ctypes over the C API):
# 4 Python ranks started by distlaunch on this machine run every collective
# and check closed-form results (runtime_python_rank.py); a library that
# cannot be found gives a one-line error naming the fix.
. "$(dirname "$0")/launch_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }
lib=$BUILD/lib/runtime/libdistkit.dylib
[ -e "$lib" ] || lib=$BUILD/lib/runtime/libdistkit.so
[ -e "$lib" ] || { echo "SKIP: libdistkit not built"; exit 77; }

printf '%s\n' '{"backend": "ring", "hosts": [{"ssh": "127.0.0.1", "ips": ["127.0.0.1"], "rdma": []}]}' \
  >"$WORK/hostfile.json"
. "$(dirname "$0")/ports_lib.sh"
port=$(free_port_block 4)
rc=0
PYTHONPATH="$SRC/lib/runtime/python" DISTKIT_LIBRARY="$lib" \
  "$DL" --hostfile "$WORK/hostfile.json" -n 4 -p "$port" --timeout 60 -- \
  python3 "$SRC/tests/integration/runtime_python_rank.py" >"$WORK/out" 2>"$WORK/err" || rc=$?
[ "$rc" = 0 ] || { cat "$WORK/out" "$WORK/err" >&2; echo "FAIL: python ranks exited $rc"; exit 1; }
for r in 0 1 2 3; do expect_line "$WORK/out" "[$r] python ok"; done

rc=0
env -u DISTKIT_LIBRARY PYTHONPATH="$SRC/lib/runtime/python" LD_LIBRARY_PATH= DYLD_LIBRARY_PATH= \
  python3 -c 'import distkit; distkit.dtype_size("float32")' >"$WORK/out" 2>&1 || rc=$?
[ "$rc" != 0 ] || { echo "FAIL: loading a missing library succeeded"; exit 1; }
expect_line "$WORK/out" "distkit.Error: libdistkit not found; install distkit or set DISTKIT_LIBRARY to the path of libdistkit.so / libdistkit.dylib"
echo PASS
