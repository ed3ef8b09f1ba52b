# distlaunch copies its own distlaunch-rank (the host agent) to a host that
# has none, when the host runs the same OS and architecture: the bytes come
# on stdin, {{size}} of them. Into the host's cache, under a name that
# carries the version and the build, so later jobs find it in the preflight;
# written beside it and moved in, so no job ever sees half a file. POSIX sh.
d="${XDG_CACHE_HOME:-$HOME/.cache}/distkit"
t="$d/.{{name|raw}}.$(uname -n).$$"  # hosts may share a home (NFS)
mkdir -p "$d" && chmod 700 "$d" || exit 1
if cat >"$t" && [ "$(wc -c <"$t" | tr -d ' ')" = {{size}} ] && chmod 755 "$t" &&
  mv -f "$t" "$d"/{{name}}; then
  exit 0
fi
rm -f "$t"
exit 1
