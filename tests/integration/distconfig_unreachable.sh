# 3 test hosts, h2's sshd stopped: distconfig reports h2 and exits 1;
# with --ignore-unreachable it writes the hostfile for h1 and h3.
. "$(dirname "$0")/distconfig_lib.sh"
cluster_up 3
bash "$TC" stop-sshd "$CL" 2 >/dev/null
run_distconfig --hosts h1,h2,h3 --over ethernet --output-hostfile "$WORK/hf.json"
[ "$RC" = 1 ] || { cat "$WORK/err" >&2; fail "expected exit 1, got $RC"; }
assert_contains "$WORK/err" "distconfig: error: h2: "
assert_contains "$WORK/err" "distconfig: error: hosts: 1 host(s) unreachable; fix them or pass --ignore-unreachable"
[ ! -e "$WORK/hf.json" ] || fail "a hostfile was written"
# Per-host progress: nothing on a non-TTY stderr, one line per step under --verbose.
assert_lacks "$WORK/err" "h1: done"
run_distconfig --hosts h1,h2,h3 --over ethernet --verbose --output-hostfile "$WORK/hf.json"
for line in "h1: connecting" "h1: probing" "h1: done" "h3: done" "h2: failed: unreachable"; do
  assert_contains "$WORK/err" "$line"
done
run_distconfig --hosts h1,h2,h3 --over ethernet --ignore-unreachable --output-hostfile "$WORK/hf.json"
[ "$RC" = 0 ] || { cat "$WORK/err" >&2; fail "--ignore-unreachable: exit $RC"; }
a1=$(bash "$TC" addr "$CL" 1)
a3=$(bash "$TC" addr "$CL" 3)
printf '{\n    "backend": "",\n    "envs": [],\n    "hosts": [\n        {\n            "ssh": "h1",\n            "ips": [\n                "%s"\n            ],\n            "rdma": []\n        },\n        {\n            "ssh": "h3",\n            "ips": [\n                "%s"\n            ],\n            "rdma": []\n        }\n    ]\n}' "$a1" "$a3" >"$WORK/want.json"
cmp "$WORK/want.json" "$WORK/hf.json" || { diff "$WORK/want.json" "$WORK/hf.json" >&2; fail "hostfile differs"; }
echo "ok: unreachable h2 reported; --ignore-unreachable proceeds with h1, h3"
