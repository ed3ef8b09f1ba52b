# Oversized input is refused, or handled, within bounded memory (peak RSS
# from /usr/bin/time): a hostfile of 10,000 hosts, --hosts with 10,000
# names, -n 100000, a 100 MB JSON hostfile, 1 MB of nested brackets; and the
# largest plan accepted (4096 hosts, whose dry run is 370 MB of text since
# every rank's script carries the ring list) is streamed in a few MB.
. "$(dirname "$0")/launch_lib.sh"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "SKIP: no $TIME (apt-get install time)"; exit 77; }

# rss_within NAME RSS_KB MAX_KB: the bound holds. Under a sanitizer
# (DISTKIT_SANITIZER, set by the asan/tsan test presets) shadow memory
# multiplies RSS, so only the exit codes and messages are checked there.
rss_within() {
  [ -z "${DISTKIT_SANITIZER:-}" ] || return 0
  [ "$2" -le "$3" ] || fail "$1: peak RSS $2 KB, more than $3 KB"
}

# bounded NAME MAX_KB WANT_RC [WANT_ERR]: runs "$@" after them with output
# discarded; checks the exit code, the error line and the peak RSS.
bounded() {
  name=$1 max_kb=$2 want_rc=$3 want_err=$4
  shift 4
  rc=0
  "$TIME" -f '%M' -o "$WORK/rss" "$@" > /dev/null 2> "$WORK/err" || rc=$?
  rss=$(tail -n 1 "$WORK/rss")
  expect_eq "$rc" "$want_rc" "$name: exit status ($(head -n 1 "$WORK/err"))"
  [ -z "$want_err" ] || expect_eq "$(grep -v '^Command exited' "$WORK/err")" "$want_err" "$name: error"
  rss_within "$name" "$rss" "$max_kb"
  echo "ok: $name (peak RSS $rss KB)"
}

# hosts_json N: a hostfile of N hosts with addresses.
hosts_json() {
  awk -v n="$1" 'BEGIN { printf "{\"hosts\": ["
    for (i = 0; i < n; i++)
      printf "%s{\"ssh\": \"n%d\", \"ips\": [\"10.%d.%d.%d\"]}", (i ? ", " : ""), i,
             int(i / 65536) % 256, int(i / 256) % 256, i % 256
    print "]}" }'
}

hosts_json 10000 > "$WORK/h10000.json"
bounded "10,000-host hostfile" 32768 2 \
  "distlaunch: error: $WORK/h10000.json: hosts: has 10000 entries, more than the 4096 distkit accepts; split the cluster into several hostfiles" \
  "$DL" --hostfile "$WORK/h10000.json" -- true
bounded "10,000 names in --hosts" 32768 2 \
  "distlaunch: error: --hosts: has 10000 entries, more than the 4096 distkit accepts; split the cluster" \
  "$DL" --hosts "$(seq -s, 1 10000 | sed 's/\([0-9][0-9]*\)/n\1/g')" -- true
bounded "-n 100000" 32768 2 \
  "distlaunch: error: -n/--repeat-hosts: 1 hosts x 100000 is 100000 ranks, more than the 4096 distkit accepts; ask for fewer ranks per host" \
  "$DL" -n 100000 -- true

# 100 MB of valid-looking JSON: refused from its size at the 64 MiB limit,
# never read or parsed.
{
  printf '{"hosts": [{"ssh": "a", "ips": ["10.0.0.1"]}], "envs": ["A='
  head -c 100000000 /dev/zero | tr '\0' x
  printf '"]}\n'
} > "$WORK/big.json"
bounded "100 MB JSON hostfile" 32768 2 \
  "distlaunch: error: $WORK/big.json: larger than 64 MiB; give the right file" \
  "$DL" --hostfile "$WORK/big.json" -- true
rm -f "$WORK/big.json"

head -c 1000000 /dev/zero | tr '\0' '[' > "$WORK/deep.json"
bounded "1 MB of nested brackets" 32768 2 \
  "distlaunch: error: $WORK/deep.json: nested deeper than 32 levels at line 1, column 33; a hostfile nests 5 levels at most; check the file" \
  "$DL" --hostfile "$WORK/deep.json" -- true

# The largest plan accepted: streamed, not held.
hosts_json 4096 > "$WORK/h4096.json"
"$TIME" -f '%M' -o "$WORK/rss" "$DL" --hostfile "$WORK/h4096.json" --dry-run -- true |
  awk '/^rank [0-9]+ -> / { n++ } END { print n + 0 }' > "$WORK/ranks"
expect_eq "$(cat "$WORK/ranks")" 4096 "ranks in the 4096-host dry run"
rss=$(tail -n 1 "$WORK/rss")
rss_within "4096-host dry run" "$rss" 65536
echo "ok: 4096-host dry run (peak RSS $rss KB)"
hosts_json 1024 > "$WORK/h1024.json"
bounded "1024-host dry run --json" 65536 0 "" "$DL" --hostfile "$WORK/h1024.json" --dry-run --json -- true
echo PASS
