#!/bin/sh
# The project's static checks (what CI runs; issue #22), over the files git
# tracks in this checkout:
#  1. shellcheck over every shell file, with the project's .shellcheckrc:
#     - every *.sh file and every other file whose first line is a sh or
#       bash shebang (.ci/run), in the shebang's dialect, else POSIX sh:
#       the probes, the templates, the tests and most scripts run under
#       /bin/sh, on Linux and on stock macOS, and must stay POSIX;
#     - scripts/completions/bash/* as bash (sourced, so no shebang);
#     - templates/*.sh: these are rendered by lib/util/src/template.cpp,
#       where {{name}} becomes one shell-quoted word and {{name|raw}} text
#       inserted as it is (a word list, a command, a whole script). They are
#       checked as POSIX sh in a temporary copy, at the same path, in which
#       each placeholder is replaced by the plain word TPL_name (same line
#       numbers, so each finding points at the template's line). With a
#       stand-in word two checks see a constant where the rendered script
#       has a value, so they are off for templates: SC2043 ("this loop will
#       only ever run once") and SC2050 ("this expression is constant").
#     Not checked: zsh and fish files (shellcheck knows neither dialect) and
#     tests/data/ (captured and golden output, pinned byte for byte), except
#     its one hand-written script, tests/data/netsetup/macos_fake.sh.
#  2. clang-format --dry-run -Werror over every *.cpp, *.hpp and *.h file,
#     with the repo's .clang-format (it reports; it never rewrites a file).
#  3. only with --tidy: clang-tidy, with the repo's .clang-tidy and every
#     finding an error, over the product's C++ sources (lib/, apps/) that
#     changed since BASE (default HEAD~5, the newest commits: all 120
#     files cost ~12 min of CPU, too much for every CI run), compiled as in
#     BUILD_DIR's compile_commands.json (a clang build: CI uses build-asan).
#
# Usage: scripts/lint.sh [--shell-only | --format-only]   (from anywhere)
#        scripts/lint.sh --tidy BUILD_DIR [BASE]
#   --shell-only   check 1 alone (needs shellcheck)
#   --format-only  check 2 alone (needs clang-format)
#   --tidy         check 3 alone (needs clang-tidy and a configured build)
#   The tools: scripts/install-deps.sh --lint.
# Exit status: 0 clean, 1 findings (printed above the summary lines),
# 2 a tool missing, not a git checkout, or bad usage.
set -eu

usage() {
  echo "lint.sh: error: $1; usage: lint.sh [--shell-only | --format-only | --tidy BUILD_DIR [BASE]]" >&2
  exit 2
}
shell=1
format=1
tidy=0
[ "${1:-}" = --tidy ] || [ $# -le 1 ] || usage "at most one argument"
case ${1:-} in
  '') ;;
  --shell-only) format=0 ;;
  --format-only) shell=0 ;;
  --tidy)
    if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage "--tidy takes BUILD_DIR and an optional BASE"; fi
    shell=0; format=0; tidy=1; build_dir=$2; base=${3:-HEAD~5} ;;
  -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) usage "unknown argument '$1'" ;;
esac

need() {
  command -v "$1" >/dev/null 2>&1 ||
    { echo "lint.sh: error: $1 not found; install it (scripts/install-deps.sh --lint)" >&2; exit 2; }
}
need git
[ "$shell" = 0 ] || need shellcheck
[ "$format" = 0 ] || need clang-format
[ "$tidy" = 0 ] || need clang-tidy
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null) ||
  { echo "lint.sh: error: not in a git checkout" >&2; exit 2; }
if [ "$tidy" = 1 ]; then
  case $build_dir in /*) ;; *) build_dir=$(pwd)/$build_dir ;; esac
  [ -f "$build_dir/compile_commands.json" ] ||
    { echo "lint.sh: error: no $build_dir/compile_commands.json; configure that build first" >&2; exit 2; }
fi
cd "$root"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
status=0

# The file lists are built in files, one path a line, and passed on as "$@"
# (set --; while read ...; set -- "$@" "$f"; done <LIST): no word splitting.
if [ "$shell" = 1 ]; then
  touch "$tmp/sh" "$tmp/bash" "$tmp/templates"  # the lists, empty in a new dir
  git ls-files >"$tmp/tracked"
  while IFS= read -r f; do
    case $f in
      tests/data/netsetup/macos_fake.sh) echo "$f" >>"$tmp/sh"; continue ;;
      tests/data/*) continue ;;
      templates/*.sh) echo "$f" >>"$tmp/templates"; continue ;;
      scripts/completions/bash/*) echo "$f" >>"$tmp/bash"; continue ;;
    esac
    [ -f "$f" ] || continue  # deleted in the work tree, not yet in the index
    first=
    IFS= read -r first <"$f" || :
    case $first in
      '#!'*[/\ ]bash | '#!'*[/\ ]bash\ *) echo "$f" >>"$tmp/bash" ;;
      '#!'*[/\ ]sh | '#!'*[/\ ]sh\ *) echo "$f" >>"$tmp/sh" ;;
      '#!'*) ;;  # another interpreter (python3, zsh, ...)
      *) case $f in *.sh) echo "$f" >>"$tmp/sh" ;; esac ;;
    esac
  done <"$tmp/tracked"

  # Templates: the copy with stand-in words, beside the project's settings.
  mkdir "$tmp/tpl"
  cp .shellcheckrc "$tmp/tpl/"
  while IFS= read -r f; do
    mkdir -p "$tmp/tpl/${f%/*}"
    sed 's/{{\([^{}|]*\)\(|raw\)\{0,1\}}}/TPL_\1/g' "$f" >"$tmp/tpl/$f"
  done <"$tmp/templates"

  n=0
  for list in sh bash templates; do
    set --
    while IFS= read -r f; do set -- "$@" "$f"; done <"$tmp/$list"
    [ $# = 0 ] && continue
    n=$((n + $#))
    rc=0
    case $list in
      templates) (cd "$tmp/tpl" && shellcheck -s sh -e SC2043,SC2050 "$@") || rc=$? ;;
      *) shellcheck -s "$list" "$@" || rc=$? ;;
    esac
    case $rc in  # 1: findings; more: it could not run
      0) ;;
      1) status=1 ;;
      *) echo "lint.sh: error: shellcheck could not run (exit $rc)" >&2; exit 2 ;;
    esac
  done
  if [ "$status" = 0 ]; then
    echo "lint.sh: shellcheck: $n files, no findings"
  else
    echo "lint.sh: shellcheck: $n files, findings above"
  fi
fi

if [ "$format" = 1 ]; then
  set --
  git ls-files -- '*.cpp' '*.hpp' '*.h' >"$tmp/cxx"
  while IFS= read -r f; do set -- "$@" "$f"; done <"$tmp/cxx"
  rc=0
  clang-format --style=file --dry-run -Werror "$@" 2>"$tmp/format" || rc=$?
  cat "$tmp/format" >&2
  if [ "$rc" = 0 ]; then
    echo "lint.sh: clang-format: $# files, all formatted"
  else
    # A file with findings has lines "PATH:LINE:COL: error: ..." (-Werror).
    bad=$(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' "$tmp/format" | sort -u | wc -l | tr -d ' ')
    [ "$bad" != 0 ] || { echo "lint.sh: error: clang-format could not run (exit $rc)" >&2; exit 2; }
    echo "lint.sh: clang-format: $bad of $# files not formatted ($(clang-format --version))"
    status=1
  fi
fi
if [ "$tidy" = 1 ]; then
  # BASE may be older than a shallow clone's history: then every file.
  if git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    git diff --name-only --diff-filter=AM "$base" -- 'lib/*.cpp' 'apps/*.cpp' >"$tmp/tidy"
  else
    git ls-files -- 'lib/*.cpp' 'apps/*.cpp' >"$tmp/tidy"
  fi
  n=$(wc -l <"$tmp/tidy" | tr -d ' ')
  rc=0
  # Two at a time (CI's two cores); a finding is an error (exit 1).
  [ "$n" = 0 ] || xargs -P 2 -n 4 clang-tidy -p "$build_dir" --quiet --warnings-as-errors='*' \
    <"$tmp/tidy" 2>"$tmp/tidy.err" || rc=$?
  grep -v 'warnings generated\.$' "$tmp/tidy.err" >&2 || :
  case $rc in
    0) echo "lint.sh: clang-tidy: $n changed files since $base, no findings" ;;
    123) echo "lint.sh: clang-tidy: $n changed files since $base, findings above"; status=1 ;;
    *) echo "lint.sh: error: clang-tidy could not run (exit $rc)" >&2; exit 2 ;;
  esac
fi
exit "$status"
