# Hostile input reaches the ranks as data, never as code: command arguments,
# --env values, a --cwd path, the command's own path and host names (from
# --hosts, a hostfile and ssh_config aliases) holding quotes, spaces,
# newlines, $(), backticks, ';', '|', '&' and non-ASCII arrive byte for byte
# (each rank dumps argv, env, host and cwd NUL-separated; the test compares
# bytes), and nothing in them runs: each payload would create a marker file
# if it were executed, and none exists afterwards. Locally and on 2 test
# hosts.
. "$(dirname "$0")/launch_lib.sh"

M="$WORK/pwned"  # every injection attempt touches $M.<what>
NL='
'
p0="single ' double \" backslash \\ end"
p1="  two  spaces	tab  "
p2="first line${NL}second line${NL}"
p3="\$(touch $M.dollar)"
p4="\`touch $M.backtick\`"
p5="; touch $M.semicolon; #"
p6="&& touch $M.and || touch $M.or | touch $M.pipe > $M.redirect &"
p7="héllo wörld → 東京 ✓ 🎉"
p8='$HOME ${PATH} * ? [a] ~ %s %n \n'
p9="-n"
p10=""
set -- "$p0" "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10"
NPAY=$#

# The --cwd and the command's directory: every hostile character at once.
CWD="$WORK/cwd 'q' \"dq\" \$(touch $M.cwd) \`touch $M.cwdtick\` ; é${NL}nl"
mkdir -p "$CWD"
# The rank program, under a hostile name, in that directory.
# (no '/' possible in a file name: this marker is relative to where it runs)
CMD="$CWD/du mp'\$(touch pwned.cmd);\`touch pwned.cmdtick\`.sh"
cat > "$CMD" <<'DUMP'
#!/bin/sh
# argv, then HOSTILE_0.., then DISTKIT_HOST and the cwd, NUL-terminated each.
{
  for a in "$@"; do printf '%s\0' "$a"; done
  i=0
  while [ $i -lt "$NPAY" ]; do eval "printf '%s\0' \"\$HOSTILE_$i\""; i=$((i + 1)); done
  printf '%s\0' "$DISTKIT_HOST" "$PWD"
} > "$DUMP_DIR/rank.$DISTKIT_RANK"
DUMP
chmod +x "$CMD"

envs() {
  i=0
  for p in "$@"; do printf '%s\0' "--env" "HOSTILE_$i=$p"; i=$((i + 1)); done
}

# expected HOST: what every rank on HOST must dump.
expected() {
  for a in "$@"; do printf '%s\0' "$a"; done
  for a in "$@"; do printf '%s\0' "$a"; done
}

# run_and_check NAME HOSTS RANKS_PER_HOST DISTLAUNCH-ARGS...: distlaunch with
# the payloads as argv and env; rank r's dump must equal the expectation for
# the host it ran on (the hosts listed in HOSTS, in order).
run_and_check() {
  name=$1 hosts=$2 n=$3
  shift 3
  out="$WORK/dump.$name"
  mkdir -p "$out"
  # distlaunch's own arguments come first; payload flags go through xargs -0
  # so no shell word splitting touches them.
  envs "$p0" "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10" > "$WORK/envargs"
  printf '%s\0' "$@" > "$WORK/dlargs"
  printf '%s\0' "--" "$CMD" "$p0" "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10" \
    > "$WORK/cmdargs"
  rc=0
  cat "$WORK/dlargs" "$WORK/envargs" "$WORK/cmdargs" |
    DUMP_DIR="$out" xargs -0 "$DL" --env "NPAY=$NPAY" --env "DUMP_DIR=$out" --cwd "$CWD" \
      --timeout 30 > "$WORK/out.$name" 2> "$WORK/err.$name" || rc=$?
  [ "$rc" = 0 ] || { cat "$WORK/err.$name"; fail "$name: distlaunch exited $rc"; }
  r=0
  old_ifs=$IFS
  IFS=,
  for h in $hosts; do
    IFS=$old_ifs
    {
      expected "$p0" "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10"
      printf '%s\0' "$h" "$CWD"
    } > "$WORK/want"
    k=0
    while [ $k -lt "$n" ]; do
      cmp "$WORK/want" "$out/rank.$r" ||
        { od -c "$out/rank.$r" | head -40; fail "$name: rank $r did not get its input byte for byte"; }
      r=$((r + 1)) k=$((k + 1))
    done
    IFS=,
  done
  IFS=$old_ifs
  echo "ok: $name ($r ranks byte for byte)"
}

no_markers() {
  found=$(find "$WORK" "$SRC" "$(pwd)" -maxdepth 3 -name 'pwned*' 2>/dev/null || true)
  [ -z "$found" ] || fail "injected code ran: $found"
}

# Locally (no sshd): 2 ranks on this machine.
run_and_check local 127.0.0.1 2 --hosts 127.0.0.1 -n 2
no_markers

# On test hosts, named by hostile ssh_config aliases.
cluster_up 2
H1="h1\$(touch\${IFS}$M.host1)'\`touch\${IFS}$M.host1b\`;é"
H2="h2;touch\${IFS}$M.host2|touch\${IFS}$M.host2b&東京"
{
  printf 'Host %s\n  HostName %s\n' "$H1" "$("$CLUSTER" addr "$C" 1)"
  printf 'Host %s\n  HostName %s\n' "$H2" "$("$CLUSTER" addr "$C" 2)"
  cat "$C/ssh_config"
} > "$WORK/ssh_config"
# --hosts: addresses come from ssh_config HostName.
run_and_check hosts "$H1,$H2" 2 --ssh-config "$WORK/ssh_config" --hosts "$H1,$H2" -n 2 --tag-output
no_markers
# A hostfile naming the same aliases, with --record under the hostile cwd.
printf '{"hosts": [{"ssh": "%s", "ips": ["%s"]}, {"ssh": "%s", "ips": ["%s"]}]}\n' \
  "$H1" "$("$CLUSTER" addr "$C" 1)" "$H2" "$("$CLUSTER" addr "$C" 2)" > "$WORK/hostfile.json"
run_and_check hostfile "$H1,$H2" 1 --ssh-config "$WORK/ssh_config" --hostfile "$WORK/hostfile.json" \
  --record "$CWD/record"
no_markers
# The manifest records the command words exactly.
perl -MJSON::PP -e '
  local $/; open my $f, "<", $ARGV[0] or die; my $j = JSON::PP->new->decode(<$f>);  # bytes in, bytes out
  my @want = @ARGV[1 .. $#ARGV];
  my @got = @{$j->{command}};
  die "manifest command differs\n" unless join("\0", @got) eq join("\0", @want);
' "$CWD/record/manifest.json" "$CMD" "$p0" "$p1" "$p2" "$p3" "$p4" "$p5" "$p6" "$p7" "$p8" "$p9" "$p10" ||
  fail "manifest command words"
no_markers
echo PASS
