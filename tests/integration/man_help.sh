# Each tool's man page documents exactly the options its --help lists:
# every option name (long and short) of `TOOL --help` appears in a term of
# the OPTIONS section of man/TOOL.1.md, and every option named there exists
# in --help. The generated roff must also be fresh (doc.man_pages checks
# that, with groff -ww), so the installed page follows; and `man -l`
# renders every page (status 0, output, nothing on stderr). Exit 77 when
# the tools are not built.
set -eu
SRC=${DISTKIT_SOURCE_DIR:-$(pwd)}
BUILD=${1:-${DISTKIT_BUILD_DIR:?give the build directory}}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/distkit-man-help.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Option names in a CLI11 --help text (the Options: section), one per line.
help_options() {
  awk '/^[A-Za-z][A-Za-z ]*:$/ { section = $0; next }
       section == "Options:" && /^  -/ {
         names = $1; n = split(names, p, ","); for (i = 1; i <= n; i++) print p[i] }' | sort -u
}

# Option names in the terms (the line before ": ...") of a page's OPTIONS.
page_options() {
  awk '/^## / { in_opts = ($0 == "## OPTIONS"); next }
       in_opts && /^: / { term = prev
         while (match(term, /`--?[A-Za-z0-9][A-Za-z0-9_-]*/)) {
           print substr(term, RSTART + 1, RLENGTH - 1); term = substr(term, RSTART + RLENGTH) } }
       { prev = $0 }' "$1" | sort -u
}

status=0
for tool in distconfig distlaunch distbench distaccept; do
  bin="$BUILD/apps/$tool"
  page="$SRC/man/$tool.1.md"
  [ -x "$bin" ] || { echo "SKIP: $bin not built"; exit 77; }
  [ -f "$page" ] || { echo "FAIL: $page missing" >&2; status=1; continue; }
  "$bin" --help | help_options >"$WORK/help"
  page_options "$page" >"$WORK/page"
  [ -s "$WORK/help" ] || { echo "FAIL: no options parsed from $tool --help" >&2; status=1; continue; }
  for o in $(comm -23 "$WORK/help" "$WORK/page"); do
    echo "FAIL: $tool: $o is in --help but not in the OPTIONS of man/$tool.1.md" >&2
    status=1
  done
  for o in $(comm -13 "$WORK/help" "$WORK/page"); do
    echo "FAIL: $tool: man/$tool.1.md documents $o, which --help does not list" >&2
    status=1
  done
done
# distlaunch's exit statuses: 255, what it returns when a host is lost
# while its ranks run (pinned by launch_cluster_cut.sh and the
# supervisor's unit tests), is a term of the man page's EXIT STATUS, and
# the README's Exit status says the same.
exit_terms() {
  awk '/^## / { in_exit = ($0 == "## EXIT STATUS"); next }
       in_exit && /^: / { print prev } { prev = $0 }' "$1"
}
if ! exit_terms "$SRC/man/distlaunch.1.md" | grep -qx 255; then
  echo "FAIL: distlaunch: exit status 255 (a lost host) missing from EXIT STATUS in man/distlaunch.1.md" >&2
  status=1
fi
if ! sed -n '/^## Exit status/,/^## [^E]/p' "$SRC/README.md" | tr '\n' ' ' |
    grep -q "255 when a host is lost while its ranks run"; then
  echo "FAIL: README.md: Exit status does not say distlaunch returns 255 for a lost host" >&2
  status=1
fi
# And man(1) itself renders every page, as users run it.
if command -v man >/dev/null 2>&1; then
  for page in "$SRC"/man/*.[1-9]; do
    if ! MANWIDTH=80 man -l -Tutf8 "$page" >"$WORK/out" 2>"$WORK/err" || [ -s "$WORK/err" ] || [ ! -s "$WORK/out" ]; then
      echo "FAIL: man -l $page: $(cat "$WORK/err")" >&2
      status=1
    fi
  done
fi
[ "$status" = 0 ] && echo PASS
exit "$status"
