# A host without passwordless sudo: --auto-setup never prompts; it prints
# that host's commands, sets up the others, and fails naming the host.
# --emit-scripts writes per-host scripts that, run as root on that host,
# finish the setup: then --verify passes.
. "$(dirname "$0")/netsetup_lib.sh"
ring3_up
bash "$TC" nosudo "$CL" 2
run_distconfig --auto-setup --emit-scripts "$WORK/scripts" --output-hostfile "$WORK/hf.json" </dev/null
[ "$RC" = 1 ] || fail "setup with a sudo-less host exited $RC"
expect_err "Setup for h2"
expect_err "sudo ip addr add 10.213.0.2/30 dev tb1"
expect_err "distconfig: error: h2: no passwordless sudo; run the commands above on it by hand, or allow passwordless sudo"
expect_err "distconfig: note: h1: 4 change(s) made"
[ "$(tail -n 1 "$WORK/err")" = "distconfig: error: setup: 1 of 3 host(s) failed; fix what is named above and run again (setup is safe to repeat)" ] ||
  fail "wrong last line: $(tail -n 1 "$WORK/err")"
for f in h1.setup.sh h2.setup.sh h3.teardown.sh h2.verify.sh; do [ -s "$WORK/scripts/$f" ] || fail "no $f"; done
on 2 sh "$WORK/scripts/h2.setup.sh" >"$WORK/h2.out" || fail "h2.setup.sh failed: $(cat "$WORK/h2.out")"
grep -q "^NS changed address 10.213.0.2/30 on tb1$" "$WORK/h2.out" || fail "h2.setup.sh did not add its address"
run_distconfig --verify
[ "$RC" = 0 ] || fail "--verify after the by-hand setup exited $RC"
echo "ok: no prompt, commands printed, scripts emitted and working"
