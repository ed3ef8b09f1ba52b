# Turns a CLI11 `--help` text into a shell completion script (bash, zsh or
# fish), so completions follow the tools' real option lists.
#   awk -v tool=NAME -v shell=bash|zsh|fish -v command_tool=0|1 \
#       -v files="opt ..." -v dirs="opt ..." -v hosts="opt ..." -v commands="opt ..." \
#       -f help2comp.awk help.txt
# files/dirs/hosts/commands: long option names (without --) whose value is a
# file, a directory, a comma-separated ssh_config host list, a command.
# Choices come from CLI11's `TEXT:{a,b}` or from a description that is
# nothing but a list ("ring, jaccl or jaccl-ring"). command_tool=1: the tool
# takes a command after its options (distlaunch -- cmd args).
# Only POSIX awk features (runs with mawk, gawk and BSD awk).

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

function kind_of(longs,    n, parts, i) {
  n = split(longs, parts, " ")
  for (i = 1; i <= n; i++) {
    if (index(" " files " ", " " parts[i] " ")) return "file"
    if (index(" " dirs " ", " " parts[i] " ")) return "dir"
    if (index(" " hosts " ", " " parts[i] " ")) return "host"
    if (index(" " commands " ", " " parts[i] " ")) return "command"
  }
  return ""
}

# "Label: ring (TCP), jaccl or jaccl-ring (default: x)" -> "ring jaccl
# jaccl-ring"; else "".
function desc_choices(d,    w) {
  sub(/^[A-Za-z ]+: /, "", d)
  gsub(/ \([^)]*\)/, "", d)
  w = "[a-z0-9][a-z0-9_-]*"
  if (d !~ ("^" w "(, " w ")*(,? or " w ")?$")) return ""
  if (d !~ /,| or /) return ""
  gsub(/,? or /, " ", d)
  gsub(/, /, " ", d)
  return d
}

# Splits the names+type column of one option into the option arrays.
function add_option(head,    names, typ, n, parts, i, c) {
  names = head
  sub(/ .*/, "", names)
  typ = substr(head, length(names) + 1)
  typ = trim(typ)
  nopt++
  longs[nopt] = ""; shorts[nopt] = ""; desc[nopt] = ""
  n = split(names, parts, ",")
  for (i = 1; i <= n; i++) {
    if (parts[i] ~ /^--/) longs[nopt] = trim(longs[nopt] " " substr(parts[i], 3))
    else if (parts[i] ~ /^-/) shorts[nopt] = trim(shorts[nopt] " " substr(parts[i], 2))
  }
  takes[nopt] = typ != ""
  repeat[nopt] = typ ~ / \.\.\.$/
  typename[nopt] = typ
  sub(/[:= ].*/, "", typename[nopt])
  choices[nopt] = ""
  if (match(typ, /\{[^}]*\}/)) {
    c = substr(typ, RSTART + 1, RLENGTH - 2)
    gsub(/,/, " ", c)
    choices[nopt] = c
  }
}

/^[A-Za-z][A-Za-z ]*:$/ { section = $0; next }
section != "Options:" { next }
/^  -/ {
  line = $0
  if (length(line) > 30 && substr(line, 29, 2) == "  ") {
    add_option(trim(substr(line, 1, 30)))
    desc[nopt] = trim(substr(line, 31))
  } else {
    add_option(trim(line))
  }
  next
}
/^   / && nopt > 0 { desc[nopt] = trim(desc[nopt] " " trim($0)); next }

END {
  for (i = 1; i <= nopt; i++) {
    kind[i] = takes[i] ? kind_of(longs[i]) : ""
    if (takes[i] && kind[i] == "" && choices[i] == "") choices[i] = desc_choices(desc[i])
    if (index(desc[i], "(repeatable)")) repeat[i] = 1
  }
  header = "generated from `" tool " --help` by scripts/completions/generate.sh;\n# do not edit: rebuild the tools and run scripts/completions/generate.sh BUILD_DIR."
  if (shell == "bash") emit_bash()
  else if (shell == "zsh") emit_zsh()
  else if (shell == "fish") emit_fish()
  else { print "help2comp.awk: unknown shell '" shell "'" > "/dev/stderr"; exit 2 }
}

function all_names(i, dash1, dash2,    n, p, j, out) {
  out = ""
  n = split(shorts[i], p, " ")
  for (j = 1; j <= n; j++) out = out " " dash1 p[j]
  n = split(longs[i], p, " ")
  for (j = 1; j <= n; j++) out = out " " dash2 p[j]
  return trim(out)
}

function hosts_awk() {
  return "tolower($1) == \"host\" { for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) print $i }"
}

# ---- bash ------------------------------------------------------------------
function emit_bash(    i, f, names, words) {
  f = "_distkit_" tool
  gsub(/-/, "_", f)
  print "# bash completion for " tool ", " header
  print ""
  print "# Host names from ~/.ssh/config (Host lines, patterns skipped)."
  print "_distkit_ssh_config_hosts() {"
  print "  [ -r \"$HOME/.ssh/config\" ] || return 0"
  print "  awk '" hosts_awk() "' \"$HOME/.ssh/config\""
  print "}"
  print ""
  print "# Completes the last name of a comma-separated host list."
  print "# COMPREPLY=($(compgen ...)): the usual split of compgen's words (no"
  print "# mapfile in macOS's bash 3.2)."
  print "# shellcheck disable=SC2207"
  print "_distkit_complete_host_list() {"
  print "  local head='' word=$1"
  print "  case $word in *,*) head=${word%,*},; word=${word##*,} ;; esac"
  print "  COMPREPLY=($(compgen -P \"$head\" -W \"$(_distkit_ssh_config_hosts)\" -- \"$word\"))"
  print "}"
  print ""
  print "# COMPREPLY=($(compgen ...)) as above."
  print "# shellcheck disable=SC2207"
  print f "() {"
  print "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}" (command_tool ? " i" : "")
  if (command_tool) {
    print "  for ((i = 1; i < COMP_CWORD; i++)); do"
    print "    if [[ ${COMP_WORDS[i]} == -- ]]; then"
    print "      if ((i + 1 == COMP_CWORD)); then COMPREPLY=($(compgen -c -- \"$cur\"))"
    print "      else COMPREPLY=($(compgen -f -- \"$cur\")); fi"
    print "      return 0"
    print "    fi"
    print "  done"
  }
  print "  # --opt=value: bash splits at '='."
  print "  if [[ $cur == = ]]; then cur=''"
  print "  elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi"
  print "  case $prev in"
  for (i = 1; i <= nopt; i++) {
    if (!takes[i]) continue
    names = all_names(i, "-", "--")
    gsub(/ /, "|", names)
    if (kind[i] == "file") print "    " names ") COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;"
    else if (kind[i] == "dir") print "    " names ") COMPREPLY=($(compgen -d -- \"$cur\")); return 0 ;;"
    else if (kind[i] == "host") print "    " names ") _distkit_complete_host_list \"$cur\"; return 0 ;;"
    else if (kind[i] == "command") print "    " names ") COMPREPLY=($(compgen -c -- \"$cur\")); return 0 ;;"
    else if (choices[i] != "") print "    " names ") COMPREPLY=($(compgen -W '" choices[i] "' -- \"$cur\")); return 0 ;;"
    else print "    " names ") return 0 ;;"
  }
  print "  esac"
  words = ""
  for (i = 1; i <= nopt; i++) words = words " " all_names(i, "-", "--")
  print "  if [[ $cur == -* ]]; then"
  print "    COMPREPLY=($(compgen -W '" trim(words) "' -- \"$cur\"))"
  print "    return 0"
  print "  fi"
  if (command_tool) print "  COMPREPLY=($(compgen -f -- \"$cur\"))"
  print "}"
  print "complete -o filenames -F " f " " tool
}

# ---- zsh -------------------------------------------------------------------
function zq(s) { gsub(/\\/, "\\\\", s); gsub(/\[/, "\\[", s); gsub(/\]/, "\\]", s); gsub(/'/, "'\\''", s); return s }

function zsh_action(i,    m) {
  m = typename[i] == "" ? "value" : tolower(typename[i])
  if (kind[i] == "file") return ":" m ":_files"
  if (kind[i] == "dir") return ":" m ":_files -/"
  if (kind[i] == "host") return ":" m ":_sequence -s , _distkit_ssh_config_hosts"
  if (kind[i] == "command") return ":" m ":_command_names -e"
  if (choices[i] != "") return ":" m ":(" choices[i] ")"
  if (takes[i]) return ":" m ":"
  return ""
}

function emit_zsh(    i, names, spec, excl) {
  print "#compdef " tool
  print "# zsh completion for " tool ", " header
  print ""
  print "# Host names from ~/.ssh/config (Host lines, patterns skipped)."
  print "(( $+functions[_distkit_ssh_config_hosts] )) ||"
  print "_distkit_ssh_config_hosts() {"
  print "  local -a hosts"
  print "  [[ -r ~/.ssh/config ]] && hosts=(${(f)\"$(awk '" hosts_awk() "' ~/.ssh/config)\"})"
  print "  compadd \"$@\" -a hosts"
  print "}"
  print ""
  print "_arguments -s -S \\"
  for (i = 1; i <= nopt; i++) {
    names = all_names(i, "-", "--")
    if (index(names, " ")) {
      excl = repeat[i] ? "*" : "(" names ")"
      gsub(/ /, ",", names)
      spec = "'" excl "'{" names "}'"
    } else {
      spec = "'" (repeat[i] ? "*" : "") names
    }
    print "  " spec "[" zq(desc[i]) "]" zq(zsh_action(i)) "' \\"
  }
  if (command_tool) print "  '*::command:_normal'"
  else print "  && return 0"
}

# ---- fish ------------------------------------------------------------------
function fq(s) { gsub(/\\/, "\\\\", s); gsub(/'/, "\\'", s); return "'" s "'" }

function emit_fish(    i, n, p, j, line) {
  print "# fish completion for " tool ", " header
  print ""
  print "# Host names from ~/.ssh/config (Host lines, patterns skipped)."
  print "function __distkit_ssh_config_hosts"
  print "    test -r ~/.ssh/config; and awk '" hosts_awk() "' ~/.ssh/config"
  print "end"
  print ""
  print "# Completes the last name of a comma-separated host list."
  print "function __distkit_host_list"
  print "    set -l token (commandline -ct | string replace -r '^--[^=]*=' '')"
  print "    set -l head (string match -r '^.*,' -- $token); or set head ''"
  print "    for h in (__distkit_ssh_config_hosts)"
  print "        echo $head$h"
  print "    end"
  print "end"
  print ""
  if (!command_tool) print "complete -c " tool " -f"
  for (i = 1; i <= nopt; i++) {
    line = "complete -c " tool
    n = split(shorts[i], p, " ")
    for (j = 1; j <= n; j++) line = line " -s " p[j]
    n = split(longs[i], p, " ")
    for (j = 1; j <= n; j++) line = line " -l " p[j]
    if (kind[i] == "file") line = line " -r -F"
    else if (kind[i] == "dir") line = line " -x -a '(__fish_complete_directories)'"
    else if (kind[i] == "host") line = line " -x -a '(__distkit_host_list)'"
    else if (kind[i] == "command") line = line " -x -a '(__fish_complete_command)'"
    else if (choices[i] != "") line = line " -x -a " fq(choices[i])
    else if (takes[i]) line = line " -x"
    print line " -d " fq(desc[i])
  }
}
