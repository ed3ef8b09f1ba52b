# ssh_config resolution: an alias (Host block with HostName) reaches its
# host; Include of another file (glob), first-value-wins, and a
# ProxyJump host going through the system ssh binary (said in --verbose).
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

a2=$("$CLUSTER" addr "$C" 2)
a7=$("$CLUSTER" addr "$C" 7)
mkdir -p "$WORK/conf.d"
cat > "$WORK/conf.d/studio.conf" <<CFG
Host mac-studio
  HostName $a7
CFG
cat > "$WORK/cfg" <<CFG
Host build-box
  HostName $a2
Include $WORK/conf.d/*.conf
Host jumped
  HostName $a7
  ProxyJump h2
Host *
  User root
  IdentityFile $C/id_ed25519
  UserKnownHostsFile $C/known_hosts
  StrictHostKeyChecking yes
  Port 22
Host *
  User nobody-first-value-wins
CFG
"$TOOL" --ssh-config "$WORK/cfg" --hosts build-box,mac-studio -- hostname > "$WORK/out"
expect_line "$WORK/out" "build-box: out: h2"
expect_line "$WORK/out" "mac-studio: out: h7"

# user@alias as ssh(1) takes it: the Host block still applies.
"$TOOL" --ssh-config "$WORK/cfg" --hosts root@build-box -- 'hostname; id -un' > "$WORK/userat"
expect_line "$WORK/userat" "root@build-box: out: h2"
expect_line "$WORK/userat" "root@build-box: out: root"
rc=0
"$TOOL" --ssh-config "$WORK/cfg" --hosts nobody@build-box -- true > "$WORK/nobody" || rc=$?
grep -q "^nobody@build-box: connect-error auth: nobody@build-box: authentication as nobody failed" "$WORK/nobody" \
  || { cat "$WORK/nobody"; fail "user@ not used for authentication"; }

# ProxyJump: libssh2 cannot, so the system ssh runs it (needs h2 in the same
# config, reachable by its name).
cat "$C/ssh_config" >> "$WORK/cfg"
"$TOOL" --ssh-config "$WORK/cfg" --verbose --hosts jumped -- hostname > "$WORK/jump" 2> "$WORK/jump.err"
expect_line "$WORK/jump" "jumped: out: h7"
grep -qF "distkit: ssh: jumped: libssh2 cannot do ProxyJump; using the system ssh binary for this host" \
  "$WORK/jump.err" || { cat "$WORK/jump.err"; fail "no verbose note about the system ssh"; }

# DISTKIT_SSH_CONFIG is used when no file is given.
DISTKIT_SSH_CONFIG="$WORK/cfg" "$TOOL" --hosts build-box -- hostname > "$WORK/env"
expect_line "$WORK/env" "build-box: out: h2"

# A named config that does not exist is a usage error (exit 2).
rc=0
"$TOOL" --ssh-config "$WORK/missing" --hosts h1 -- true 2> "$WORK/missing.err" || rc=$?
[ "$rc" = 2 ] || fail "missing config: expected exit 2, got $rc"
expect_line "$WORK/missing.err" "ssh_tool: error: $WORK/missing: cannot read this ssh config file; check the path given with --ssh-config or DISTKIT_SSH_CONFIG"
echo "PASS"
