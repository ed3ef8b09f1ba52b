# Authentication: with ssh-agent holding the key and no identity file, and
# with the key file only (no agent). Without either, the failure lists the
# methods tried.
. "$(dirname "$0")/ssh_lib.sh"
cluster_up 8

a5=$("$CLUSTER" addr "$C" 5)
# A config with no IdentityFile; HOME points where no default key exists.
cat > "$WORK/cfg_noid" <<CFG
Host h5
  HostName $a5
  User root
  UserKnownHostsFile $C/known_hosts
CFG
mkdir -p "$WORK/home"

# 1. Agent only.
eval "$(ssh-agent -s)" >/dev/null
ssh-add -q "$C/id_ed25519" 2>/dev/null
HOME="$WORK/home" "$TOOL" --ssh-config "$WORK/cfg_noid" --hosts h5 -- hostname > "$WORK/agent" || true
ssh-agent -k >/dev/null
unset SSH_AUTH_SOCK SSH_AGENT_PID
expect_line "$WORK/agent" "h5: out: h5"

# 2. No agent, no key: refused, listing what was tried.
rc=0
HOME="$WORK/home" "$TOOL" --ssh-config "$WORK/cfg_noid" --hosts h5 -- hostname > "$WORK/none" || rc=$?
[ "$rc" = 1 ] || fail "expected exit 1 without any key"
expect_line "$WORK/none" "h5: connect-error auth: h5: authentication as root failed (tried: ssh-agent (SSH_AUTH_SOCK not set), $WORK/home/.ssh/id_ed25519 (missing), $WORK/home/.ssh/id_ecdsa (missing), $WORK/home/.ssh/id_rsa (missing)); add your public key to the host's ~/.ssh/authorized_keys or load it into ssh-agent"

# 2b. HOME unset: the default keys are under the password database's home
# (as ssh(1) finds them), not under "/".
pwhome=$(getent passwd "$(id -un)" | cut -d: -f6)
rc=0
env -u HOME "$TOOL" --ssh-config "$WORK/cfg_noid" --hosts h5 -- hostname > "$WORK/nohome" || rc=$?
[ "$rc" = 1 ] || fail "expected exit 1 without any key and without HOME"
grep -qF "(tried: ssh-agent (SSH_AUTH_SOCK not set), $pwhome/.ssh/id_ed25519 (" "$WORK/nohome" ||
  { cat "$WORK/nohome" >&2; fail "without HOME, the default keys are not under $pwhome"; }

# 3. Key file only: the default ~/.ssh/id_ed25519 ...
mkdir -p "$WORK/home/.ssh"
cp "$C/id_ed25519" "$WORK/home/.ssh/id_ed25519"
HOME="$WORK/home" "$TOOL" --ssh-config "$WORK/cfg_noid" --hosts h5 -- hostname > "$WORK/default_key"
expect_line "$WORK/default_key" "h5: out: h5"
# ... and IdentityFile from the generated config, on all 8 hosts.
"$TOOL" --ssh-config "$C/ssh_config" --hostfile "$C/hosts" -- hostname > "$WORK/keyfile"
[ "$(grep -c ': exit 0$' "$WORK/keyfile")" = 8 ] || fail "key-file auth failed somewhere"

# 4. A wrong key is refused with the file named.
ssh-keygen -q -t ed25519 -N '' -f "$WORK/wrong_key"
sed "s|IdentityFile .*|IdentityFile $WORK/wrong_key|" "$C/ssh_config" > "$WORK/cfg_wrong"
"$TOOL" --ssh-config "$WORK/cfg_wrong" --hosts h1 -- true > "$WORK/wrong" || true
expect_line "$WORK/wrong" "h1: connect-error auth: h1: authentication as root failed (tried: $WORK/wrong_key (refused)); add your public key to the host's ~/.ssh/authorized_keys or load it into ssh-agent"
echo "PASS"
