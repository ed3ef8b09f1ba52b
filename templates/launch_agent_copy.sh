# distlaunch copies its own distkit-agent (the host agent) to a host that
# has none, when the host runs the same OS and architecture: the bytes come
# on stdin, {{size}} of them. Into the host's cache, in a directory named
# for the version and the build, so later jobs find it in the preflight (the
# file keeps its name: a process name on Linux is the file's first 15
# characters); written beside it and moved in, so no job ever sees half a
# file. POSIX sh.
c="${XDG_CACHE_HOME:-$HOME/.cache}/distkit"
d="$c/{{build|raw}}"
t="$d/.distkit-agent.$(uname -n).$$"  # hosts may share a home (NFS)
mkdir -p "$d" && chmod 700 "$c" "$d" || exit 1
if cat >"$t" && [ "$(wc -c <"$t" | tr -d ' ')" = {{size}} ] && chmod 755 "$t" &&
  mv -f "$t" "$d/distkit-agent"; then
  exit 0
fi
rm -f "$t"
exit 1
