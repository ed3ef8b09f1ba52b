#!/bin/sh
# Checks that every generated man page matches its source (man/*.<section>.md), and
# that groff renders it without warnings. With --update, rewrites the pages.
# Usage: man/tools/check.sh [--update]     (from anywhere)
# Exit status: 0 fresh (or updated), 1 stale or groff warnings, 2 bad usage.
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
mandir=$(dirname "$tools")
update=0
case "${1:-}" in
  --update) update=1 ;;
  "") ;;
  *) echo "check.sh: error: unknown argument '$1'; use --update or nothing" >&2; exit 2 ;;
esac

status=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for src in "$mandir"/*.[1-9].md; do
  [ -e "$src" ] || continue
  page="${src%.md}"
  awk -f "$tools/md2man.awk" "$src" >"$tmp"
  if [ "$update" = 1 ]; then
    cp "$tmp" "$page"
    echo "wrote $page"
  elif ! cmp -s "$tmp" "$page"; then
    echo "check.sh: $page is stale; run man/tools/check.sh --update and commit it" >&2
    status=1
  fi
  if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -Tutf8 -ww -z "$tmp" 2>&1 || true)
    if [ -n "$warnings" ]; then
      echo "check.sh: groff warns about $page:" >&2
      echo "$warnings" >&2
      status=1
    fi
  fi
done
exit "$status"
