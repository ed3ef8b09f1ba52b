# Python ranks on a real sshd host, as mlx.launch runs them: a rank's
# print() reaches distlaunch while the rank still runs (its stdout is a
# pipe, so PYTHONUNBUFFERED=1 is set unless the user set it); --python goes
# before any command (`--python P -- -c ...`, MLX #4002); --print-python
# prints --python as given, else the absolute path of python3 on PATH.
. "$(dirname "$0")/launch_lib.sh"
# An interpreter the test hosts see (each has its own empty home, so not
# one under ~ such as pyenv's).
py=
for p in /usr/bin/python3 /usr/local/bin/python3 /opt/homebrew/bin/python3; do
  [ -x "$p" ] && { py=$p; break; }
done
[ -n "$py" ] || { echo "SKIP: no python3 outside the home directory"; exit 77; }
cluster_up 1

# A rank prints, then waits for the test to see that line before it ends.
go="$WORK/go"
: > "$WORK/out"
"$DL" --ssh-config "$C/ssh_config" --hosts h1 --timeout 60 -- "$py" -c "
import os, time
print('printed before the end')
t = time.time()
while not os.path.exists('$go') and time.time() - t < 30:
    time.sleep(0.1)
print('ended', 'seen' if os.path.exists('$go') else 'unseen', os.environ.get('PYTHONUNBUFFERED'))
" > "$WORK/out" 2> "$WORK/err" &
pid=$!
t=0
until grep -qx "printed before the end" "$WORK/out" || [ $t -ge 150 ]; do sleep 0.1; t=$((t + 1)); done
seen=no
grep -qx "printed before the end" "$WORK/out" && seen=yes
kill -0 "$pid" 2>/dev/null || { cat "$WORK/err" >&2; fail "distlaunch ended before the line was looked for"; }
touch "$go"
rc=0
wait "$pid" || rc=$?
expect_eq "$seen" yes "the rank's first line while it still ran"
[ "$rc" = 0 ] || { cat "$WORK/err" >&2; fail "python rank exited $rc"; }
expect_line "$WORK/out" "ended seen 1"

# The user's own setting wins (here: buffered).
dl --hosts h1 --env PYTHONUNBUFFERED= -- "$py" -c \
  "import os; print(repr(os.environ['PYTHONUNBUFFERED']))" > "$WORK/out"
expect_line "$WORK/out" "''"

# --python before a command that is not a script: -c and -m.
dl --hosts h1 --python "$py" -- -c 'import sys; print("under", sys.executable)' > "$WORK/out" 2> "$WORK/err" ||
  { cat "$WORK/err" >&2; fail "--python -- -c failed"; }
expect_line "$WORK/out" "under $py"
dl --hosts h1 --python "$py" -- -m json.tool --help > "$WORK/out" 2> "$WORK/err" ||
  { cat "$WORK/err" >&2; fail "--python -- -m failed"; }
grep -q "usage:.*json.tool" "$WORK/out" || { cat "$WORK/out" >&2; fail "-m json.tool did not run"; }

# --print-python: as given, else python3 found on PATH, absolute.
expect_eq "$("$DL" --python /opt/venv/bin/python --print-python)" /opt/venv/bin/python "--print-python with --python"
mkdir -p "$WORK/bin"
ln -s "$py" "$WORK/bin/python3"
expect_eq "$(cd "$WORK" && PATH="bin:/usr/bin:/bin" "$DL" --print-python)" "$WORK/bin/python3" "--print-python"
echo PASS
