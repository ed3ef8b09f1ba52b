# The committed completions work in the shells they are for: sourced by a
# real bash, autoloaded by a real interactive zsh (compinit, in a pty) and
# sourced by fish, each completes options, hostfile paths, directories,
# choice lists and host names from ~/.ssh/config (patterns skipped, last
# name of a comma list), without printing any error.
set -eu
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
COMP="$SRC/scripts/completions"
HERE="$SRC/tests/integration"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-completions-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }

# A home with an ssh_config, and a working directory with a hostfile.
export HOME="$WORK/home"
mkdir -p "$HOME/.ssh" "$WORK/cwd/logs"
printf 'Host mini1 mini2 *.lab\n  HostName 10.0.0.1\nHost !bad\nhost studio\n' >"$HOME/.ssh/config"
touch "$WORK/cwd/cluster.json" "$WORK/cwd/notes.txt"
cd "$WORK/cwd"
tested=""

# ---- bash ------------------------------------------------------------------
# bash_complete TOOL WORDS...: the sorted matches, space-separated, for the
# last word (the one being completed).
bash_complete() {
  tool=$1
  bash --norc --noprofile -c '
    set -u
    . "$1/bash/$2"
    shift 2
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    fn=$(complete -p "${COMP_WORDS[0]}" | sed "s/.* -F \([^ ]*\) .*/\1/")
    "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"
  ' bash "$COMP" "$tool" "$@" 2>"$WORK/bash.err"
  [ ! -s "$WORK/bash.err" ] || fail "bash printed errors: $(cat "$WORK/bash.err")"
}
if command -v bash >/dev/null 2>&1; then
  expect_eq "$(bash_complete distlaunch distlaunch --host)" "--hostfile --hosts" "bash: options"
  expect_eq "$(bash_complete distlaunch distlaunch --hostfile cl)" "cluster.json" "bash: hostfile path"
  expect_eq "$(bash_complete distlaunch distlaunch --hosts '')" "mini1 mini2 studio" "bash: ssh_config hosts"
  expect_eq "$(bash_complete distlaunch distlaunch --hosts mini1,m)" "mini1,mini1 mini1,mini2" "bash: host list"
  expect_eq "$(bash_complete distlaunch distlaunch --cwd l)" "logs" "bash: directory"
  expect_eq "$(bash_complete distconfig distconfig --backend j)" "jaccl jaccl-ring" "bash: choices"
  expect_eq "$(bash_complete distconfig distconfig --backend = j)" "jaccl jaccl-ring" "bash: --opt=value"
  expect_eq "$(bash_complete distbench distbench -n '')" "" "bash: a number is not completed"
  bash_complete distlaunch distlaunch -n 2 -- ech | tr ' ' '\n' | grep -qx echo ||
    fail "bash: no command completed after --"
  expect_eq "$(bash_complete distlaunch distlaunch -n 2 -- echo no)" "notes.txt" "bash: command arguments"
  for t in distconfig distlaunch distbench; do
    bash --norc --noprofile -n "$COMP/bash/$t" || fail "bash: syntax error in $t"
  done
  tested="$tested bash"
fi

# ---- zsh -------------------------------------------------------------------
# zsh_complete 'LINE': the sorted matches, space-separated.
zsh_complete() {
  out=$(mktemp "$WORK/zsh.XXXXXX")
  zsh -f "$HERE/install_completions_zsh.zsh" "$COMP/zsh" "$HOME" "$out" "$1" || fail "zsh driver failed"
  if grep -aE ':[0-9]+: |zsh: |command not found' "$out.tty" >"$WORK/zsh.err"; then
    fail "zsh printed errors completing '$1': $(cat "$WORK/zsh.err")"
  fi
  sort -u "$out" | tr '\n' ' ' | sed 's/ $//'
}
if command -v zsh >/dev/null 2>&1 && zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
  expect_eq "$(zsh_complete 'distconfig --backend j')" "jaccl jaccl-ring" "zsh: choices"
  expect_eq "$(zsh_complete 'distlaunch --hosts mini1,')" "mini2 studio" "zsh: host list"
  expect_eq "$(zsh_complete 'distbench --op ')" "max min prod sum" "zsh: choices from the help text"
  zsh_complete 'distlaunch --hostf' | grep -q -- '--hostfile' || fail "zsh: options"
  expect_eq "$(zsh_complete 'distlaunch --hostfile cl')" "cluster.json" "zsh: hostfile path"
  zsh_complete 'distlaunch -n 2 -- ech' | tr ' ' '\n' | grep -qx echo || fail "zsh: no command completed after --"
  for t in distconfig distlaunch distbench; do
    zsh -f -n "$COMP/zsh/_$t" || fail "zsh: syntax error in _$t"
  done
  tested="$tested zsh"
fi

# ---- fish ------------------------------------------------------------------
fish_complete() {
  XDG_CONFIG_HOME="$WORK/xdg" XDG_DATA_HOME="$WORK/xdg" fish --no-config -c \
    "source $COMP/fish/$1.fish; complete -C '$2'" 2>"$WORK/fish.err" | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//'
  [ ! -s "$WORK/fish.err" ] || fail "fish printed errors: $(cat "$WORK/fish.err")"
}
if command -v fish >/dev/null 2>&1; then
  expect_eq "$(fish_complete distconfig 'distconfig --backend j')" "jaccl jaccl-ring" "fish: choices"
  expect_eq "$(fish_complete distlaunch 'distlaunch --hosts mini1,')" "mini1,mini1 mini1,mini2 mini1,studio" \
    "fish: host list"
  expect_eq "$(fish_complete distconfig 'distconfig --hosts=s')" "--hosts=studio" "fish: --opt=value"
  expect_eq "$(fish_complete distlaunch 'distlaunch --hostfile cl')" "cluster.json" "fish: hostfile path"
  tested="$tested fish"
fi

[ -n "$tested" ] || { echo "SKIP: none of bash, zsh, fish installed"; exit 77; }
case $tested in *zsh*) ;; *) echo "note: zsh (with zsh/zpty) not installed: zsh completions untested" ;; esac
echo "PASS:$tested"
