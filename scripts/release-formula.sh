#!/bin/sh
# Renders the Homebrew formula (templates/homebrew/distkit.rb.in) for a
# release tarball: computes the tarball's SHA-256 and fills in its download
# URL and the project homepage. The tarball is what users download, e.g.
#   git archive --prefix=distkit-0.1.0/ -o distkit-0.1.0.tar.gz v0.1.0
# Usage: scripts/release-formula.sh TARBALL URL HOMEPAGE [OUT]
#   writes the formula to OUT (default: stdout).
# Exit status: 0 written, 1 tarball unreadable or no SHA-256 tool, 2 bad usage.
set -eu
usage() { echo "release-formula.sh: error: $1; usage: release-formula.sh TARBALL URL HOMEPAGE [OUT]" >&2; exit 2; }
{ [ $# -ge 3 ] && [ $# -le 4 ]; } || usage "expected 3 or 4 arguments"
tarball=$1 url=$2 homepage=$3 out=${4:-}
case $url in https://*|http://*|file://*) ;; *) usage "URL must start with https://, http:// or file://" ;; esac
case $homepage in https://*|http://*) ;; *) usage "HOMEPAGE must start with https:// or http://" ;; esac
# The values go into Ruby strings: no quotes, backslashes or #{} there.
for v in "$url" "$homepage"; do
  case $v in *'"'*|*\\*|*'#{'*|*' '*) usage "'$v' has a quote, backslash, space or #{" ;; esac
done
[ -r "$tarball" ] || { echo "release-formula.sh: error: $tarball: cannot read; give the release tarball" >&2; exit 1; }

if command -v sha256sum >/dev/null 2>&1; then sum=$(sha256sum <"$tarball")
elif command -v shasum >/dev/null 2>&1; then sum=$(shasum -a 256 <"$tarball")
else echo "release-formula.sh: error: neither sha256sum nor shasum found; install coreutils or perl" >&2; exit 1
fi
sum=${sum%% *}

template="$(cd "$(dirname "$0")/.." && pwd)/templates/homebrew/distkit.rb.in"
[ -z "$out" ] || exec >"$out.tmp"  # renamed to OUT once complete
# Substitution with awk index/substr (no regex, no sed delimiter issues).
awk -v url="$url" -v sha="$sum" -v home="$homepage" '
  function put(line, key, value,    i) {
    while ((i = index(line, key)) > 0)
      line = substr(line, 1, i - 1) value substr(line, i + length(key))
    return line
  }
  { $0 = put($0, "@URL@", url); $0 = put($0, "@SHA256@", sha); print put($0, "@HOMEPAGE@", home) }
' "$template"
[ -z "$out" ] || mv "$out.tmp" "$out"
