# The job secret stays secret: while 4 ranks run on 2 test hosts (and 2 on
# this machine), no process listing on any host shows it (ps -eo args), the
# file holding it is mode 0600 in a 0700 dir, and afterwards it is in no
# output, log file or run manifest (--verbose, --log-dir, --record).
. "$(dirname "$0")/launch_lib.sh"

# Each rank copies the secret where the test can read it, notes the file's
# path, and waits for the test to finish looking.
rank='cp "$DISTKIT_SECRET_FILE" "$OUT/secret.$DISTKIT_RANK"
printf "%s\n" "$DISTKIT_SECRET_FILE" > "$OUT/path.$DISTKIT_RANK"
while [ ! -e "$OUT/go" ]; do sleep 0.1; done'

# check_run NAME NRANKS NHOSTS_TO_SCAN DISTLAUNCH-ARGS...
check_run() {
  name=$1 nranks=$2 scan=$3
  shift 3
  out="$WORK/$name"
  mkdir -p "$out"
  "$DL" "$@" --verbose --log-dir "$out/logs" --record "$out/record" --timeout 30 \
    --env "OUT=$out" -- sh -c "$rank" > "$out/stdout" 2> "$out/stderr" &
  pid=$!
  t=0
  # shellcheck disable=SC2010 # counts the path.N files the ranks write
  while [ "$(ls "$out" | grep -c '^path\.')" -lt "$nranks" ] && [ $t -lt 150 ]; do
    sleep 0.1; t=$((t + 1))
  done
  # shellcheck disable=SC2010 # as above
  [ "$(ls "$out" | grep -c '^path\.')" = "$nranks" ] || { cat "$out/stderr"; fail "$name: ranks did not start"; }
  sleep 0.2  # the secret files were read: all ranks hold the same secret
  secret=$(cat "$out/secret.0")
  [ "${#secret}" -ge 32 ] || fail "$name: secret too short: '$secret'"
  r=0
  while [ $r -lt "$nranks" ]; do
    expect_eq "$(cat "$out/secret.$r")" "$secret" "$name: rank $r's secret"
    r=$((r + 1))
  done
  # Process listings: this machine, then each test host's own PID namespace.
  ps -eo args > "$out/ps.local"
  grep -qF 'while [ ! -e' "$out/ps.local" || fail "$name: the process listing misses the ranks"
  grep -qF "$secret" "$out/ps.local" && fail "$name: the secret shows in ps on this machine"
  k=1
  while [ $k -le "$scan" ]; do
    on_host $k ps -eo args > "$out/ps.h$k"
    grep -qF 'while [ ! -e' "$out/ps.h$k" || fail "$name: h$k's process listing misses the ranks"
    grep -qF "$secret" "$out/ps.h$k" && fail "$name: the secret shows in ps on h$k"
    k=$((k + 1))
  done
  # The files holding it, checked on their hosts while the ranks run.
  r=0
  while [ $r -lt "$nranks" ]; do
    f=$(cat "$out/path.$r")
    k=$(( scan > 0 ? r / (nranks / scan) + 1 : 0 ))
    if [ $k -gt 0 ]; then modes=$(on_host $k stat -c '%a' "$f" "${f%/*}" | tr '\n' ' ')
    else modes=$(stat -c '%a' "$f" "${f%/*}" | tr '\n' ' '); fi
    expect_eq "$modes" "600 700 " "$name: modes of rank $r's secret file and its dir"
    r=$((r + 1))
  done
  touch "$out/go"
  wait $pid || { cat "$out/stderr"; fail "$name: distlaunch failed"; }
  [ -s "$out/record/manifest.json" ] || fail "$name: no manifest"
  [ -s "$out/logs/rank-0.log" ] || [ -e "$out/logs/rank-0.log" ] || fail "$name: no rank log"
  leaks=$(grep -rlF "$secret" "$out/stdout" "$out/stderr" "$out/logs" "$out/record" || true)
  [ -z "$leaks" ] || fail "$name: the secret is written in $leaks"
  # The secret files went with their rank.
  r=0
  while [ $r -lt "$nranks" ]; do
    [ -e "$(cat "$out/path.$r")" ] && fail "$name: rank $r's secret file is left"
    r=$((r + 1))
  done
  echo "ok: $name"
}

check_run local 2 0 --hosts 127.0.0.1 -n 2
cluster_up 2
check_run cluster 4 2 --ssh-config "$C/ssh_config" --hosts h1,h2 -n 2
echo PASS
